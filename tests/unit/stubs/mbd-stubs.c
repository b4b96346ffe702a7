/*
 * What mbatchd's state core (libmbdcore.a) calls outside itself, for
 * check_mbd and the workload 9 simulator (bench/sim): the log keeps its
 * records in memory (mbd_stub_log; the simulator keeps none), and
 * nothing is sent to a host or a command.
 */
#include <stdlib.h>
#include <string.h>

#include "mbd.h"
#include "mbd-stubs.h"

struct mbd *mbd;
struct strbuf mbd_stub_log = STRBUF_INIT;
bool mbd_stub_keep_log = true;
int mbd_stub_sends;

off_t
log_record(struct strbuf *rec)
{
	static off_t dropped;
	off_t off = (off_t)mbd_stub_log.len + dropped;

	if (mbd_stub_keep_log)
		sb_add(&mbd_stub_log, rec->buf, rec->len);
	else
		dropped += (off_t)rec->len;
	return off;
}

int mbd_stub_acct;

void
acct_job_finished(struct job *j, int64_t now)
{
	mbd_stub_acct++;
}

void
acct_array_ended(struct job *parent, int64_t now)
{
	mbd_stub_acct += (int)parent->arr->gone.count;
}

void
outbox_add(struct conn *c, struct wbuf *w)
{
	wbuf_release(w);
}

void
sbd_send(struct mhost *h, struct wbuf *w, bool after_log)
{
	wbuf_release(w);
	mbd_stub_sends++;
}

void
client_job_event(struct job *j, int what)
{
}

void
client_reply_error(struct conn *c, uint32_t seq, int code, const char *context,
    const char *detail, bool wait_log)
{
}

void
mbd_sched_dirty(void)
{
}

void
mbd_kick(void)
{
}

void
exc_host_opened(struct mhost *h)
{
}

int
env_read(const struct menv *e, struct strv *env)
{
	return -1;
}

char *
job_command(struct job *j)
{
	return xstrdup(j->command ? j->command : "");
}

void
job_dispatch(struct job *j, const int *slots, int64_t now)
{
	BUG("check_mbd dispatches nothing");
}

int
queue_accepts(struct mqueue *q, struct job *j, const char *user, int uid)
{
	return LSBE_NO_ERROR;
}

struct mqueue *
queue_lost_found(void)
{
	return mbd->queues[0];
}

void
job_set_asked(struct job *j, const struct strv *hosts)
{
}

void
job_susp_send(struct job *j)
{
}

void
exc_exit_apply(const struct job *j, const struct ev_job_status *ev,
    int64_t when)
{
}
