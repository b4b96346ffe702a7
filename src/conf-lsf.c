/* $LSF_ENVDIR/lsf.conf: shell-like KEY=value lines, no sections. */
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "conf-lex.h"

void
lsf_conf_init(struct lsf_conf *c)
{
	memset(c, 0, sizeof(*c));
	strv_init(&c->keys);
	strv_init(&c->vals);
	strv_init(&c->master_list);
	c->lim_port = DEF_LIM_PORT;
	c->mbd_port = DEF_MBD_PORT;
	c->sbd_port = DEF_SBD_PORT;
	c->unit_for_limits = xstrdup("KB");
	c->mailto = xstrdup("!U");
	c->mailprog = xstrdup("/usr/lib/sendmail");
	c->hist_wal_limit = DEF_HIST_WAL_LIMIT;
}

void
lsf_conf_release(struct lsf_conf *c)
{
	free(c->path);
	strv_release(&c->keys);
	strv_release(&c->vals);
	free(c->envdir);
	free(c->confdir);
	free(c->lsb_confdir);
	free(c->sharedir);
	free(c->logdir);
	free(c->serverdir);
	free(c->libdir);
	free(c->bindir);
	free(c->sbd_statedir);
	free(c->localdir);
	free(c->hist_dir);
	strv_release(&c->master_list);
	free(c->unit_for_limits);
	free(c->log_mask);
	free(c->mailto);
	free(c->mailprog);
	memset(c, 0, sizeof(*c));
}

const char *
lsf_conf_get(const struct lsf_conf *c, const char *key)
{
	for (size_t i = c->keys.n; i > 0; i--)
		if (strcmp(c->keys.v[i - 1], key) == 0)
			return c->vals.v[i - 1];
	return NULL;
}

/* The last "key=value" for key, or NULL. */
static const struct conf_kv *
last_kv(const struct conf_kvs *kv, const char *key)
{
	for (int i = kv->n; i > 0; i--)
		if (strcmp(kv->v[i - 1].key, key) == 0)
			return &kv->v[i - 1];
	return NULL;
}

/* Its value, allocated, or NULL when unset or empty. */
static char *
value_dup(const struct conf_kvs *kv, const char *key)
{
	const struct conf_kv *e = last_kv(kv, key);

	if (e == NULL || conf_blank(e->val))
		return NULL;
	return xstrdup(e->val);
}

/* Replace the default when the key has a value. */
static void
get_default(const struct conf_kvs *kv, const char *key, char **dst)
{
	char *v = value_dup(kv, key);

	if (v) {
		free(*dst);
		*dst = v;
	}
}

static void
get_port(const struct conf_kvs *kv, const char *path, const char *key,
    int *port, struct conf_diag *d)
{
	const struct conf_kv *e = last_kv(kv, key);

	if (e == NULL || conf_blank(e->val))
		return;
	if (conf_int(e->val, 1, 65535, port) < 0)
		conf_diag_error(d, path, e->line,
		    "%s must be a port number 1-65535, not \"%s\"", key,
		    e->val);
}

static void
get_unit(struct lsf_conf *c, const struct conf_kvs *kv, struct conf_diag *d)
{
	static const char *const units[] = { "KB", "MB", "GB", "TB", "PB",
	    "EB", "ZB", NULL };
	const struct conf_kv *e = last_kv(kv, "LSF_UNIT_FOR_LIMITS");

	if (e == NULL || conf_blank(e->val))
		return;
	if (!conf_key_in(e->val, units)) {
		conf_diag_error(d, c->path, e->line,
		    "LSF_UNIT_FOR_LIMITS must be one of KB MB GB TB PB EB ZB, "
		    "not \"%s\"", e->val);
		return;
	}
	free(c->unit_for_limits);
	c->unit_for_limits = xstrdup(e->val);
	for (char *p = c->unit_for_limits; *p; p++)
		*p = (char)toupper((unsigned char)*p);
}

/* Job packs (bsub -pack): off unless LSB_MAX_PACK_JOBS is above 0. */
static void
get_pack(struct lsf_conf *c, const struct conf_kvs *kv, struct conf_diag *d)
{
	const struct conf_kv *e = last_kv(kv, "LSB_MAX_PACK_JOBS");

	if (e != NULL && !conf_blank(e->val) &&
	    conf_int(e->val, 0, 1000000, &c->max_pack_jobs) < 0)
		conf_diag_error(d, c->path, e->line,
		    "LSB_MAX_PACK_JOBS must be a number 0-1000000, not \"%s\"",
		    e->val);
	e = last_kv(kv, "LSB_PACK_SKIP_ERROR");
	if (e != NULL && !conf_blank(e->val) &&
	    conf_bool(e->val, &c->pack_skip_error) < 0)
		conf_diag_error(d, c->path, e->line,
		    "LSB_PACK_SKIP_ERROR must be Y or N, not \"%s\"",
		    e->val);
}

/* The job history: where its database is, and its WAL's bound. */
static void
get_hist(struct lsf_conf *c, const struct conf_kvs *kv, struct conf_diag *d)
{
	const struct conf_kv *e = last_kv(kv, "LSB_HIST_DB_DIR");

	if (e != NULL && !conf_blank(e->val)) {
		if (e->val[0] != '/')
			conf_diag_error(d, c->path, e->line,
			    "LSB_HIST_DB_DIR must be an absolute path, not "
			    "\"%s\"", e->val);
		else {
			c->hist_dir = xstrdup(e->val);
			c->hist_dir_line = e->line;
		}
	}
	e = last_kv(kv, "LSB_HIST_WAL_LIMIT");
	if (e != NULL && !conf_blank(e->val) &&
	    conf_int(e->val, 1, 65536, &c->hist_wal_limit) < 0)
		conf_diag_error(d, c->path, e->line,
		    "LSB_HIST_WAL_LIMIT must be a number of MB 1-65536, not "
		    "\"%s\"", e->val);
}

/*
 * Can mbatchd write in dir?  It runs as root, which writes anywhere but
 * on a read-only file system (or an NFS export that squashes root, which
 * only the write itself tells): a check run by another user asks that.
 */
static bool
root_can_write(const char *dir)
{
	struct statvfs vfs;

	if (geteuid() == 0)
		return access(dir, W_OK) == 0;
	if (statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY)) {
		errno = EROFS;
		return false;
	}
	return true;
}

void
lsf_conf_check_hist(const struct lsf_conf *c, struct conf_diag *d)
{
	struct stat st;
	const char *why = NULL;

	if (c->hist_dir == NULL)
		return;
	if (stat(c->hist_dir, &st) < 0)
		why = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "not a directory";
	else if (!root_can_write(c->hist_dir))
		why = strerror(errno);
	if (why != NULL)
		conf_diag_warn(d, c->path, c->hist_dir_line,
		    "LSB_HIST_DB_DIR %s: %s; mbatchd keeps no job history "
		    "until it can write there", c->hist_dir, why);
}

int
lsf_conf_read(struct lsf_conf *c, const char *envdir, unsigned parts,
    struct conf_diag *d)
{
	struct conf_file f;
	struct conf_kvs kv;
	const struct conf_kv *e;
	size_t n = strlen(envdir);

	/* "/etc/" and "/etc" are one directory; keep the name tidy. */
	while (n > 1 && envdir[n - 1] == '/')
		n--;
	c->envdir = xstrndup(envdir, n);
	c->path = xasprintf("%s/lsf.conf",
	    strcmp(c->envdir, "/") == 0 ? "" : c->envdir);
	if (conf_file_read(&f, c->path, CONF_LEX_SQUOTE, d) < 0) {
		conf_diag_error(d, c->path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return -1;
	}
	conf_kvs_read(&f, NULL, CONF_LEX_SQUOTE, &kv, d);
	for (int i = 0; i < kv.n; i++) {
		strv_push(&c->keys, kv.v[i].key);
		strv_push(&c->vals, kv.v[i].val);
	}

	c->confdir = value_dup(&kv, "LSF_CONFDIR");
	if (c->confdir == NULL)
		conf_diag_error(d, c->path, 0, "LSF_CONFDIR is not defined");
	c->lsb_confdir = value_dup(&kv, "LSB_CONFDIR");
	if (c->lsb_confdir == NULL && c->confdir != NULL)
		c->lsb_confdir = xasprintf("%s/lsbatch", c->confdir);
	c->sharedir = value_dup(&kv, "LSB_SHAREDIR");
	if (c->sharedir == NULL && (parts & CONF_LSB))
		conf_diag_error(d, c->path, 0, "LSB_SHAREDIR is not defined");
	c->logdir = value_dup(&kv, "LSF_LOGDIR");
	c->serverdir = value_dup(&kv, "LSF_SERVERDIR");
	c->bindir = value_dup(&kv, "LSF_BINDIR");
	c->libdir = value_dup(&kv, "LSF_LIBDIR");
	c->sbd_statedir = value_dup(&kv, "LSB_SBD_STATEDIR");
	c->localdir = value_dup(&kv, "LSB_LOCALDIR");
	if (c->localdir != NULL && c->localdir[0] != '/') {
		conf_diag_error(d, c->path, last_kv(&kv, "LSB_LOCALDIR")->line,
		    "LSB_LOCALDIR must be an absolute path, not \"%s\"",
		    c->localdir);
		free(c->localdir);
		c->localdir = NULL;
	}
	c->log_mask = value_dup(&kv, "LSF_LOG_MASK");
	get_port(&kv, c->path, "LSF_LIM_PORT", &c->lim_port, d);
	get_port(&kv, c->path, "LSB_MBD_PORT", &c->mbd_port, d);
	get_port(&kv, c->path, "LSB_SBD_PORT", &c->sbd_port, d);
	if ((e = last_kv(&kv, "LSF_MASTER_LIST")) != NULL)
		strv_split_ws(&c->master_list, e->val);
	get_unit(c, &kv, d);
	get_pack(c, &kv, d);
	get_hist(c, &kv, d);
	get_default(&kv, "LSB_MAILTO", &c->mailto);
	get_default(&kv, "LSB_MAILPROG", &c->mailprog);

	conf_kvs_release(&kv);
	conf_file_release(&f);
	return c->confdir == NULL ? -1 : 0;
}
