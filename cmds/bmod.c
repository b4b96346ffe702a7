/*
 * bmod: change the options of a submitted job.
 *
 *	bmod [bsub options] [-Jn -Wn -Mn -cn -on -en -spn -wn -bn -tn
 *	     -Pn -un -rn -En -Epn -Bn -Nn -xn -mn -Rn -nn -cwdn] jobID
 *
 * Each option sets what bsub's would; its "n" form puts back the
 * default.  The job must be pending for most of them; a started job
 * takes -r, -sp, -W, -c, -M, -o, -e and -R (mbatchd decides, with
 * LSB_MOD_ALL_JOBS).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "cmdopt.h"
#include "conf.h"
#include "lsf.h"
#include "timespec.h"

enum {
	O_Q = 1, O_J, O_N, O_R, O_W, O_M, O_C, O_O, O_OO, O_E, O_EO, O_SP,
	O_DEP, O_B, O_T, O_P, O_U, O_RERUN, O_PRE, O_POST, O_MAILB, O_MAILN,
	O_X, O_HOSTS, O_CWD,
	/* The reset forms. */
	O_JN, O_NN, O_RN, O_WN, O_MN, O_CN, O_ON, O_EN, O_SPN, O_DEPN, O_BN,
	O_TN, O_PN, O_UN, O_RERUNN, O_PREN, O_POSTN, O_MAILBN, O_MAILNN,
	O_XN, O_HOSTSN, O_CWDN,
	O_H, O_V
};

static const struct cmdopt opts[] = {
	{ "q", true, O_Q }, { "J", true, O_J }, { "n", true, O_N },
	{ "R", true, O_R }, { "W", true, O_W }, { "M", true, O_M },
	{ "c", true, O_C }, { "o", true, O_O }, { "oo", true, O_OO },
	{ "e", true, O_E }, { "eo", true, O_EO }, { "sp", true, O_SP },
	{ "w", true, O_DEP }, { "b", true, O_B }, { "t", true, O_T },
	{ "P", true, O_P }, { "u", true, O_U }, { "r", false, O_RERUN },
	{ "E", true, O_PRE }, { "Ep", true, O_POST }, { "B", false, O_MAILB },
	{ "N", false, O_MAILN }, { "x", false, O_X }, { "m", true, O_HOSTS },
	{ "cwd", true, O_CWD },
	{ "Jn", false, O_JN }, { "nn", false, O_NN }, { "Rn", false, O_RN },
	{ "Wn", false, O_WN }, { "Mn", false, O_MN }, { "cn", false, O_CN },
	{ "on", false, O_ON }, { "en", false, O_EN }, { "spn", false, O_SPN },
	{ "wn", false, O_DEPN }, { "bn", false, O_BN }, { "tn", false, O_TN },
	{ "Pn", false, O_PN }, { "un", false, O_UN }, { "rn", false, O_RERUNN },
	{ "En", false, O_PREN }, { "Epn", false, O_POSTN },
	{ "Bn", false, O_MAILBN }, { "Nn", false, O_MAILNN },
	{ "xn", false, O_XN }, { "mn", false, O_HOSTSN },
	{ "cwdn", false, O_CWDN },
	{ "h", false, O_H }, { "V", false, O_V },
	/* LSF's options this version does not do: refused by name (a
	 * real entry above wins over one here). */
#define L CMDOPT_UNSUP
	L("app", true), L("appn", false), L("ar", false), L("arn", false),
	L("C", true), L("Cn", false), L("D", true), L("Dn", false),
	L("data", true), L("datan", false), L("F", true), L("Fn", false),
	L("f", true), L("fn", false), L("G", true), L("Gn", false),
	L("g", true), L("gn", false), L("gpu", true), L("gpun", false),
	L("hl", false), L("hln", false), L("hostfile", true),
	L("hostfilen", false), L("i", true), L("in", false),
	L("is", true), L("isn", false), L("Jd", true), L("Jdn", false),
	L("k", true), L("kn", false), L("L", true), L("Ln", false),
	L("Lp", true), L("Lpn", false), L("Ne", false),
	L("outdir", true), L("outdirn", false), L("p", true),
	L("pn", false), L("Q", true), L("Qn", false), L("S", true),
	L("Sn", false), L("sla", true), L("slan", false), L("T", true),
	L("Tn", false), L("ul", false), L("uln", false), L("v", true),
	L("vn", false), L("Z", true), L("Zs", false), L("Zsn", false),
#undef L
	{ NULL, false, 0 }
};

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: bmod [-h] [-V] [-r | -rn] [-x | -xn] [-B | -Bn] [-N | -Nn]\n"
	    "            [-q queue_name] [-J job_name | -Jn]\n"
	    "            [-n num_proc | -nn] [-R \"res_req\" | -Rn]\n"
	    "            [-W [hour:]minute | -Wn] [-M mem_limit | -Mn]\n"
	    "            [-c [hour:]minute | -cn] [-o out_file | -on]\n"
	    "            [-e err_file | -en] [-sp priority | -spn]\n"
	    "            [-w \"dependency\" | -wn] [-b begin_time | -bn]\n"
	    "            [-t term_time | -tn] [-P project | -Pn]\n"
	    "            [-u mail_user | -un] [-E \"pre_exec\" | -En]\n"
	    "            [-Ep \"post_exec\" | -Epn] [-m \"hosts\" | -mn]\n"
	    "            [-cwd dir | -cwdn] jobId | \"jobId[index]\"\n");
	exit(code);
}

static void NORETURN
bad(const char *v, const char *why)
{
	fprintf(stderr, "%s: %s. Job not modified.\n", v, why);
	exit(255);
}

static const char *
unit(void)
{
	const struct lsf_config *c = client_config(CONF_SHARED);

	return c->lsf.unit_for_limits ? c->lsf.unit_for_limits : "KB";
}

static int64_t
minutes_of(const char *v)
{
	long long m;

	if (parse_time_limit(v, &m) < 0 || m <= 0)
		bad(v, "Bad time specification");
	return (int64_t)m * 60;
}

static int64_t
when_of(const char *v, bool term)
{
	int64_t t = 0;
	char *why = NULL;

	if (timespec_parse(v, (int64_t)time(NULL), term, &t, &why) < 0 &&
	    (term || t <= 0)) {
		free(why);
		bad(v, "Bad time specification");
	}
	free(why);
	return t;
}

static char *
abs_path(const char *v)
{
	char cwd[4096];

	if (v[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL)
		return xstrdup(v);
	return xasprintf("%s/%s", cwd, v);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct mod_req m;
	struct submit_req *r = &m.req;
	struct job_id *ids = NULL;
	uint32_t nids = 0;
	struct wbuf w;
	struct reply rp;
	struct msg_error e;
	const char *v;
	char **rest, *end;
	int nrest, id, fd;
	long long kb;
	long n;

	progname = "bmod";
	memset(&m, 0, sizeof(m));
	submit_req_init(r);
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &v)) != 0) {
		switch (id) {
		case O_Q: m.set |= MOD_QUEUE; r->queue = xstrdup(v); break;
		case O_J: m.set |= MOD_NAME; r->job_name = xstrdup(v); break;
		case O_N:
			errno = 0;
			n = strtol(v, &end, 10);
			if (errno || n <= 0 || n > 1000000 ||
			    (*end && *end != ','))
				bad(v, "Bad argument");
			r->num_procs = r->max_procs = (int)n;
			m.set |= MOD_NPROCS;
			break;
		case O_R:
			/* The new requirement replaces the old: the last
			 * -R is it. */
			m.set |= MOD_RESREQ;
			strv_release(&r->res_reqs);
			strv_push(&r->res_reqs, v);
			break;
		case O_W:
			m.set |= MOD_RUNLIMIT;
			r->rlimits[LSF_RLIMIT_RUN] = minutes_of(v);
			break;
		case O_C:
			m.set |= MOD_CPULIMIT;
			r->rlimits[LSF_RLIMIT_CPU] = minutes_of(v);
			break;
		case O_M:
			if (parse_mem_kb(v, unit(), &kb) < 0 || kb <= 0)
				bad(v, "Bad argument");
			m.set |= MOD_MEMLIMIT;
			r->rlimits[LSF_RLIMIT_RSS] = kb;
			break;
		case O_O: case O_OO:
			m.set |= MOD_OUT;
			free(r->out_file);
			r->out_file = xstrdup(v);
			if (id == O_OO)
				r->options2 |= SUB2_OUT_OVERWRITE;
			break;
		case O_E: case O_EO:
			m.set |= MOD_ERR;
			free(r->err_file);
			r->err_file = xstrdup(v);
			if (id == O_EO)
				r->options2 |= SUB2_ERR_OVERWRITE;
			break;
		case O_SP:
			errno = 0;
			n = strtol(v, &end, 10);
			if (errno || *end || n <= 0 || n > INT32_MAX)
				bad(v, "Bad argument");
			m.set |= MOD_PRIO;
			r->user_priority = (int)n;
			break;
		case O_DEP:
			m.set |= MOD_DEPEND;
			r->depend_cond = xstrdup(v);
			break;
		case O_B: m.set |= MOD_BEGIN; r->begin_time = when_of(v, false);
			break;
		case O_T: m.set |= MOD_TERM; r->term_time = when_of(v, true);
			break;
		case O_P: m.set |= MOD_PROJECT; r->project = xstrdup(v); break;
		case O_U: m.set |= MOD_MAIL; r->mail_user = xstrdup(v); break;
		case O_RERUN: m.set |= MOD_RERUN; break;
		case O_PRE: m.set |= MOD_PRE; r->pre_exec = xstrdup(v); break;
		case O_POST: m.set |= MOD_POST; r->post_exec = xstrdup(v);
			break;
		case O_MAILB:
			m.set |= MOD_NOTIFY;
			r->options |= SUB_NOTIFY_BEGIN;
			break;
		case O_MAILN:
			m.set |= MOD_NOTIFY;
			r->options |= SUB_NOTIFY_END;
			break;
		case O_X: m.set |= MOD_EXCL; break;
		case O_HOSTS: {
			struct strv words = STRV_INIT;

			/* "host+2" preferences: the host is what counts. */
			m.set |= MOD_HOSTS;
			strv_split_ws(&words, v);
			for (size_t i = 0; i < words.n; i++) {
				char *h = xstrndup(words.v[i],
				    strcspn(words.v[i], "+"));

				strv_push(&r->asked_hosts, h);
				free(h);
			}
			strv_release(&words);
			break;
		}
		case O_CWD: m.set |= MOD_CWD; r->cwd = abs_path(v); break;
		case O_JN: m.del |= MOD_NAME; break;
		case O_NN: m.del |= MOD_NPROCS; break;
		case O_RN: m.del |= MOD_RESREQ; break;
		case O_WN: m.del |= MOD_RUNLIMIT; break;
		case O_MN: m.del |= MOD_MEMLIMIT; break;
		case O_CN: m.del |= MOD_CPULIMIT; break;
		case O_ON: m.del |= MOD_OUT; break;
		case O_EN: m.del |= MOD_ERR; break;
		case O_SPN: m.del |= MOD_PRIO; break;
		case O_DEPN: m.del |= MOD_DEPEND; break;
		case O_BN: m.del |= MOD_BEGIN; break;
		case O_TN: m.del |= MOD_TERM; break;
		case O_PN: m.del |= MOD_PROJECT; break;
		case O_UN: m.del |= MOD_MAIL; break;
		case O_RERUNN: m.del |= MOD_RERUN; break;
		case O_PREN: m.del |= MOD_PRE; break;
		case O_POSTN: m.del |= MOD_POST; break;
		case O_MAILBN: case O_MAILNN: m.del |= MOD_NOTIFY; break;
		case O_XN: m.del |= MOD_EXCL; break;
		case O_HOSTSN: m.del |= MOD_HOSTS; break;
		case O_CWDN: m.del |= MOD_CWD; break;
		case O_V:
			print_version();
			exit(0);
		case O_H:
			usage_exit(0);
		default:
			if (id != CMDOPT_UNSUPPORTED)
				fprintf(stderr, "bmod: bad option %s\n",
				    st.bad ? st.bad : "");
			usage_exit(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest != 1)
		usage_exit(255);
	if (parse_job_id(rest[0], &ids, &nids) < 0 || nids != 1) {
		fprintf(stderr, "%s: Illegal job ID.\n", rest[0]);
		exit(255);
	}
	if (m.set & m.del) {
		fprintf(stderr, "bmod: an option and its n form together\n");
		usage_exit(255);
	}
	if (m.set == 0 && m.del == 0) {
		fprintf(stderr, "bmod: no option to change\n");
		usage_exit(255);
	}
	m.jobid = ids[0].jobid;
	m.idx = ids[0].idx;

	wbuf_init(&w);
	mod_req_frame(&w, MSG_JOB_MODIFY, 1, &m);
	fd = mbd_connect();
	if (mbd_call(fd, &w, &rp) < 0) {
		fprintf(stderr, "bmod: lost the connection to mbatchd\n");
		exit(255);
	}
	if (reply_is_error(&rp, &e)) {
		if (e.context)
			fprintf(stderr, "%s: %s. Job not modified.\n",
			    e.context, lsb_errmsg(e.code));
		else
			fprintf(stderr, "%s. Job not modified.\n",
			    lsb_errmsg(e.code));
		if (e.detail)
			fprintf(stderr, "bmod: %s\n", e.detail);
		exit(255);
	}
	{
		struct job_result_list rl;

		if (rp.hdr.type != MSG_SIGNAL_REPLY ||
		    !job_result_list_unpack(&rp.r, &rl) ||
		    rbuf_end(&rp.r) < 0 || rl.n != 1) {
			fprintf(stderr, "bmod: unexpected reply from mbatchd\n");
			exit(255);
		}
		if (rl.v[0].code != LSBE_NO_ERROR) {
			fprintf(stderr, "%s. Job not modified.\n",
			    lsb_errmsg(rl.v[0].code));
			exit(255);
		}
		job_result_list_release(&rl);
		if (m.idx > 0)
			printf("Parameters of job <%lld[%d]> are being "
			    "changed\n", (long long)m.jobid, m.idx);
		else
			printf("Parameters of job <%lld> are being changed\n",
			    (long long)m.jobid);
	}
	return 0;
}
