/* MUNGE credentials and the claims they carry (include/auth.h). */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include <munge.h>

#include "auth.h"
#include "conf.h"
#include "proto.h"
#include "util.h"
#include "wire.h"

#define CLAIM_MAGIC	"lsf-auth 1"

static const char *const role_names[] = {
	[AUTH_NONE] = "none",
	[AUTH_LIM] = "lim",
	[AUTH_SBD] = "sbatchd",
	[AUTH_MBD] = "mbatchd",
	[AUTH_CMD] = "command",
};

static const char *const kind_names[] = {
	[AUTH_HELLO] = "hello",
	[AUTH_REPLY] = "reply",
};

static char	*munge_socket;		/* NULL: munged's default */
static uid_t	 admin_uid = 0;

const char *
auth_role_name(enum auth_role r)
{
	if ((unsigned)r >= ARRAY_SIZE(role_names))
		return "?";
	return role_names[r];
}

static int
lookup(const char *const *names, size_t n, const char *s, size_t len)
{
	for (size_t i = 1; i < n; i++)
		if (names[i] && strlen(names[i]) == len &&
		    strncmp(names[i], s, len) == 0)
			return (int)i;
	return -1;
}

static bool
host_ok(const char *h)
{
	size_t n = strlen(h);

	if (n == 0 || n > AUTH_HOST_MAX)
		return false;
	for (const char *p = h; *p; p++)
		if (*p <= ' ' || *p > '~')
			return false;
	return true;
}

int
auth_claim_format(const struct auth_claim *c, char *buf, size_t size)
{
	int n;

	if (c->kind != AUTH_HELLO && c->kind != AUTH_REPLY)
		return -1;
	if (c->from_role <= AUTH_NONE || c->from_role > AUTH_CMD ||
	    c->to_role <= AUTH_NONE || c->to_role > AUTH_CMD)
		return -1;
	if (!host_ok(c->from_host) || !host_ok(c->to_host) ||
	    strlen(c->nonce) != AUTH_NONCE_LEN)
		return -1;
	n = snprintf(buf, size, "%s %s %s %s %s %s %s", CLAIM_MAGIC,
	    kind_names[c->kind], role_names[c->from_role], c->from_host,
	    role_names[c->to_role], c->to_host, c->nonce);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * The next word of [*p, end), after exactly one space: a claim has one
 * spelling, the one auth_claim_format writes.  Its length, 0 if none.
 */
static size_t
next_word(const char **p, const char *end, const char **word)
{
	const char *s = *p;

	if (s < end && *s == ' ')
		s++;
	else
		s = end;
	*word = s;
	while (s < end && *s != ' ')
		s++;
	*p = s;
	return (size_t)(s - *word);
}

static int
copy_host(char *dst, const char *w, size_t n)
{
	if (n == 0 || n > AUTH_HOST_MAX)
		return -1;
	/* Each byte, not the C string: a NUL inside would cut the name. */
	for (size_t i = 0; i < n; i++)
		if (w[i] <= ' ' || w[i] > '~')
			return -1;
	memcpy(dst, w, n);
	dst[n] = '\0';
	return 0;
}

/* "ROLE HOST": who sends, or who it is for. */
static int
party(const char **p, const char *end, enum auth_role *role, char *host,
    const char **why)
{
	const char *w;
	size_t n;
	int k;

	*why = "bad role";
	n = next_word(p, end, &w);
	if ((k = lookup(role_names, ARRAY_SIZE(role_names), w, n)) < 0)
		return -1;
	*role = k;
	*why = "bad host";
	n = next_word(p, end, &w);
	return copy_host(host, w, n);
}

int
auth_claim_parse(const void *payload, size_t len, struct auth_claim *c,
    const char **why)
{
	const char *p = payload, *end = p + len, *w;
	size_t n, magic = strlen(CLAIM_MAGIC);
	int k;

	memset(c, 0, sizeof(*c));
	*why = "not an LSF claim";
	if (len < magic || memcmp(p, CLAIM_MAGIC, magic) != 0 ||
	    (len > magic && p[magic] != ' '))
		return -1;
	p += magic;
	*why = "bad kind";
	n = next_word(&p, end, &w);
	if ((k = lookup(kind_names, ARRAY_SIZE(kind_names), w, n)) < 0)
		return -1;
	c->kind = k;
	if (party(&p, end, &c->from_role, c->from_host, why) < 0 ||
	    party(&p, end, &c->to_role, c->to_host, why) < 0)
		return -1;
	*why = "bad nonce";
	n = next_word(&p, end, &w);
	if (n != AUTH_NONCE_LEN)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!((w[i] >= '0' && w[i] <= '9') ||
		    (w[i] >= 'a' && w[i] <= 'f')))
			return -1;
	memcpy(c->nonce, w, n);
	c->nonce[n] = '\0';
	*why = "trailing bytes";
	if (p != end)
		return -1;
	*why = NULL;
	return 0;
}

void
auth_new_nonce(struct auth_claim *c)
{
	unsigned char b[AUTH_NONCE_LEN / 2];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0 && errno != EINTR)
			BUG("getrandom: %s", strerror(errno));
		if (n > 0)
			got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(c->nonce + 2 * i, 3, "%02x", b[i]);
}

int
auth_init(const struct lsf_config *conf, char **cause)
{
	const char *m = lsf_conf_get(&conf->lsf, "LSF_AUTH");
	const char *s = lsf_conf_get(&conf->lsf, "LSF_MUNGE_SOCKET");

	if (m && *m && strcasecmp(m, "munge") != 0) {
		*cause = xasprintf("LSF_AUTH=%s: not supported (this version "
		    "authenticates with munge only)", m);
		return -1;
	}
	free(munge_socket);
	munge_socket = s && *s ? xstrdup(s) : NULL;
	admin_uid = 0;
	if (conf->cluster.admins.n > 0) {
		struct passwd *pw = getpwnam(conf->cluster.admins.v[0]);

		if (pw)
			admin_uid = pw->pw_uid;
	}
	return 0;
}

bool
auth_uid_is_daemon(uid_t uid)
{
	return uid == 0 || uid == admin_uid;
}

static munge_ctx_t
ctx_new(char **cause)
{
	munge_ctx_t ctx = munge_ctx_create();

	if (ctx == NULL) {
		*cause = xstrdup("munge: out of memory");
		return NULL;
	}
	if (munge_socket &&
	    munge_ctx_set(ctx, MUNGE_OPT_SOCKET, munge_socket) != EMUNGE_SUCCESS) {
		*cause = xasprintf("munge: %s", munge_ctx_strerror(ctx));
		munge_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

int
auth_encode(const struct auth_claim *c, char **cred, char **cause)
{
	char text[640];
	munge_ctx_t ctx;
	munge_err_t e;

	*cred = NULL;
	if (auth_claim_format(c, text, sizeof(text)) < 0) {
		*cause = xstrdup("malformed claim");
		return -1;
	}
	if ((ctx = ctx_new(cause)) == NULL)
		return -1;
	e = munge_encode(cred, ctx, text, (int)strlen(text));
	if (e != EMUNGE_SUCCESS) {
		*cause = xasprintf("munge: %s", munge_ctx_strerror(ctx));
		munge_ctx_destroy(ctx);
		*cred = NULL;
		return -1;
	}
	munge_ctx_destroy(ctx);
	return 0;
}

int
auth_decode(const char *cred, struct auth_claim *c, uid_t *uid, gid_t *gid,
    char **cause)
{
	munge_ctx_t ctx;
	munge_err_t e;
	void *payload = NULL;
	int len = 0;
	const char *why;
	int rc = -1;

	if ((ctx = ctx_new(cause)) == NULL)
		return -1;
	e = munge_decode(cred, ctx, &payload, &len, uid, gid);
	if (e != EMUNGE_SUCCESS)
		*cause = xasprintf("munge: %s", munge_ctx_strerror(ctx));
	else if (auth_claim_parse(payload, (size_t)len, c, &why) < 0)
		*cause = xasprintf("credential: %s", why);
	else
		rc = 0;
	free(payload);
	munge_ctx_destroy(ctx);
	return rc;
}

int
auth_client_fd(int fd, enum auth_role me, const char *myhost,
    enum auth_role them, const char *theirhost, int timeout_ms, char **cause)
{
	struct auth_claim cl, rep;
	struct wbuf w;
	struct wire_hdr h;
	struct rbuf r;
	uint8_t *body = NULL;
	char *cred = NULL;
	uid_t uid;
	gid_t gid;
	int rc = -1;

	memset(&cl, 0, sizeof(cl));
	cl.kind = AUTH_HELLO;
	cl.from_role = me;
	snprintf(cl.from_host, sizeof(cl.from_host), "%s", myhost);
	cl.to_role = them;
	snprintf(cl.to_host, sizeof(cl.to_host), "%s", theirhost);
	auth_new_nonce(&cl);
	if (auth_encode(&cl, &cred, cause) < 0)
		return -1;
	wbuf_init(&w);
	wbuf_begin(&w, MSG_AUTH, 0, 0);
	put_str(&w, cred);
	wbuf_end_frame(&w);
	free(cred);
	cred = NULL;
	if (wire_send(fd, &w) < 0 || wire_recv(fd, &h, &body, timeout_ms) < 0) {
		*cause = xstrdup("no answer to the handshake");
		goto out;
	}
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	if (h.type != MSG_AUTH_OK || !get_str(&r, &cred) || cred == NULL ||
	    rbuf_end(&r) < 0) {
		*cause = xasprintf("it answered %s, not the handshake",
		    msg_type_name(h.type));
		goto out;
	}
	if (auth_decode(cred, &rep, &uid, &gid, cause) < 0)
		goto out;
	if (!auth_uid_is_daemon(uid) || rep.kind != AUTH_REPLY ||
	    strcmp(rep.nonce, cl.nonce) != 0 || rep.from_role != them ||
	    strcasecmp(rep.from_host, theirhost) != 0 || rep.to_role != me ||
	    strcasecmp(rep.to_host, myhost) != 0) {
		*cause = xasprintf("it did not prove to be %s on %s",
		    auth_role_name(them), theirhost);
		goto out;
	}
	rc = 0;
out:
	wbuf_release(&w);
	free(cred);
	free(body);
	return rc;
}
