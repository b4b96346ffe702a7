/* MUNGE credentials and the claims they carry (include/auth.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
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

#define CLAIM_MAGIC	"lsf-auth 2"
#define AUTH_FRAME_MAX	(16u * 1024)

static const char *const role_names[] = {
	[AUTH_NONE] = "none",
	[AUTH_LIM] = "lim",
	[AUTH_SBD] = "sbatchd",
	[AUTH_MBD] = "mbatchd",
	[AUTH_CMD] = "command",
};

static const char *const kind_names[] = {
	[AUTH_CHALLENGE] = "challenge",
	[AUTH_PROOF] = "proof",
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

/* A word of a claim: printable, no blank, 1 to max bytes. */
static bool
word_ok(const char *w, size_t n, size_t max)
{
	if (n == 0 || n > max)
		return false;
	/* Each byte, not the C string: a NUL inside would cut the word. */
	for (size_t i = 0; i < n; i++)
		if (w[i] <= ' ' || w[i] > '~')
			return false;
	return true;
}

static bool
nonce_ok(const char *w, size_t n)
{
	if (n != AUTH_NONCE_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((w[i] >= '0' && w[i] <= '9') ||
		    (w[i] >= 'a' && w[i] <= 'f')))
			return false;
	return true;
}

static bool
role_ok(enum auth_role r)
{
	return r > AUTH_NONE && r <= AUTH_CMD;
}

static bool
str_ok(const char *s, size_t max)
{
	return s != NULL && word_ok(s, strlen(s), max);
}

int
auth_claim_format(const struct auth_claim *c, char *buf, size_t size)
{
	int n;

	if (c->kind != AUTH_CHALLENGE && c->kind != AUTH_PROOF)
		return -1;
	if (!role_ok(c->from_role) || !role_ok(c->to_role))
		return -1;
	if (!str_ok(c->from_host, AUTH_HOST_MAX) ||
	    !str_ok(c->to_host, AUTH_HOST_MAX) ||
	    !nonce_ok(c->client_nonce, strlen(c->client_nonce)) ||
	    !nonce_ok(c->server_nonce, strlen(c->server_nonce)) ||
	    !str_ok(c->client_ep, AUTH_EP_MAX) ||
	    !str_ok(c->server_ep, AUTH_EP_MAX))
		return -1;
	n = snprintf(buf, size, "%s %s %s %s %s %s %s %s %s %s", CLAIM_MAGIC,
	    kind_names[c->kind], role_names[c->from_role], c->from_host,
	    role_names[c->to_role], c->to_host, c->client_nonce,
	    c->server_nonce, c->client_ep, c->server_ep);
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

/* The next word into dst (max bytes and a NUL), checked by ok. */
static int
next_into(const char **p, const char *end, char *dst, size_t max,
    bool (*ok)(const char *, size_t, size_t))
{
	const char *w;
	size_t n = next_word(p, end, &w);

	if (!ok(w, n, max))
		return -1;
	memcpy(dst, w, n);
	dst[n] = '\0';
	return 0;
}

static bool
nonce_word_ok(const char *w, size_t n, size_t max)
{
	return nonce_ok(w, n);
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
	return next_into(p, end, host, AUTH_HOST_MAX, word_ok);
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
	if (next_into(&p, end, c->client_nonce, AUTH_NONCE_LEN,
	    nonce_word_ok) < 0 || next_into(&p, end, c->server_nonce,
	    AUTH_NONCE_LEN, nonce_word_ok) < 0)
		return -1;
	*why = "bad endpoint";
	if (next_into(&p, end, c->client_ep, AUTH_EP_MAX, word_ok) < 0 ||
	    next_into(&p, end, c->server_ep, AUTH_EP_MAX, word_ok) < 0)
		return -1;
	*why = "trailing bytes";
	if (p != end)
		return -1;
	*why = NULL;
	return 0;
}

int
auth_claim_check(const struct auth_claim *got, uid_t uid,
    const struct auth_claim *want, char **why)
{
	*why = NULL;
	if (got->kind != want->kind)
		*why = xasprintf("it is a %s, not a %s",
		    kind_names[got->kind], kind_names[want->kind]);
	else if ((got->kind == AUTH_CHALLENGE || got->from_role != AUTH_CMD) &&
	    !auth_uid_is_daemon(uid))
		*why = xasprintf("its credential is uid %d's, who may not "
		    "act as %s", (int)uid, auth_role_name(got->from_role));
	else if (got->from_role != want->from_role ||
	    strcasecmp(got->from_host, want->from_host) != 0)
		*why = xasprintf("it is %s on %s, not %s on %s",
		    auth_role_name(got->from_role), got->from_host,
		    auth_role_name(want->from_role), want->from_host);
	else if (got->to_role != want->to_role ||
	    strcasecmp(got->to_host, want->to_host) != 0)
		*why = xasprintf("it is for %s on %s, not %s on %s",
		    auth_role_name(got->to_role), got->to_host,
		    auth_role_name(want->to_role), want->to_host);
	else if (strcmp(got->client_nonce, want->client_nonce) != 0 ||
	    strcmp(got->server_nonce, want->server_nonce) != 0)
		*why = xstrdup("it was made for another connection (nonce)");
	else if (strcmp(got->client_ep, want->client_ep) != 0 ||
	    strcmp(got->server_ep, want->server_ep) != 0)
		*why = xasprintf("it was made for the connection %s to %s, "
		    "not %s to %s", got->client_ep, got->server_ep,
		    want->client_ep, want->server_ep);
	return *why ? -1 : 0;
}

void
auth_new_nonce(char nonce[AUTH_NONCE_LEN + 1])
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
		snprintf(nonce + 2 * i, 3, "%02x", b[i]);
}

int
auth_endpoint(const struct sockaddr *sa, socklen_t len,
    char ep[AUTH_EP_MAX + 1])
{
	char a[INET6_ADDRSTRLEN];

	ep[0] = '\0';
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *s = (const void *)sa;

		if (!inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a)))
			return -1;
		snprintf(ep, AUTH_EP_MAX + 1, "%s:%u", a, ntohs(s->sin_port));
		return 0;
	}
	if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *s = (const void *)sa;

		if (IN6_IS_ADDR_V4MAPPED(&s->sin6_addr)) {
			if (!inet_ntop(AF_INET, &s->sin6_addr.s6_addr[12], a,
			    sizeof(a)))
				return -1;
			snprintf(ep, AUTH_EP_MAX + 1, "%s:%u", a,
			    ntohs(s->sin6_port));
			return 0;
		}
		if (!inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a)))
			return -1;
		snprintf(ep, AUTH_EP_MAX + 1, "[%s]:%u", a,
		    ntohs(s->sin6_port));
		return 0;
	}
	return -1;
}

bool
auth_hello_ok(const struct auth_hello *h, const char **why)
{
	*why = "bad role";
	if (!role_ok(h->from_role) || !role_ok(h->to_role))
		return false;
	*why = "bad host";
	if (!str_ok(h->from_host, AUTH_HOST_MAX) ||
	    !str_ok(h->to_host, AUTH_HOST_MAX))
		return false;
	*why = "bad nonce";
	if (h->nonce == NULL || !nonce_ok(h->nonce, strlen(h->nonce)))
		return false;
	*why = NULL;
	return true;
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

/* Both endpoints of a connected socket, as the claims name them. */
static int
fd_endpoints(int fd, bool server, struct auth_hs *hs, char **cause)
{
	struct sockaddr_storage me, peer;
	socklen_t ml = sizeof(me), pl = sizeof(peer);
	char *mine, *theirs;

	if (getsockname(fd, (struct sockaddr *)&me, &ml) < 0 ||
	    getpeername(fd, (struct sockaddr *)&peer, &pl) < 0) {
		*cause = xasprintf("the connection's addresses: %s",
		    strerror(errno));
		return -1;
	}
	mine = server ? hs->server_ep : hs->client_ep;
	theirs = server ? hs->client_ep : hs->server_ep;
	if (auth_endpoint((struct sockaddr *)&me, ml, mine) < 0 ||
	    auth_endpoint((struct sockaddr *)&peer, pl, theirs) < 0) {
		*cause = xstrdup("the connection is not over TCP");
		return -1;
	}
	return 0;
}

static void
set_host(char dst[AUTH_HOST_MAX + 1], const char *src)
{
	snprintf(dst, AUTH_HOST_MAX + 1, "%s", src ? src : "");
}

/* The claim of one side of hs: the challenge or the proof. */
static void
hs_claim(const struct auth_hs *hs, enum auth_kind kind, bool from_me,
    struct auth_claim *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->from_role = from_me ? hs->me : hs->them;
	set_host(c->from_host, from_me ? hs->myhost : hs->theirhost);
	c->to_role = from_me ? hs->them : hs->me;
	set_host(c->to_host, from_me ? hs->theirhost : hs->myhost);
	strcpy(c->client_nonce, hs->client_nonce);
	strcpy(c->server_nonce, hs->server_nonce);
	strcpy(c->client_ep, hs->client_ep);
	strcpy(c->server_ep, hs->server_ep);
}

int
auth_hs_client_init(struct auth_hs *hs, int fd, enum auth_role me,
    const char *myhost, enum auth_role them, const char *theirhost,
    char **cause)
{
	struct auth_hs n;

	/* Built apart: the hosts may be hs's own. */
	memset(&n, 0, sizeof(n));
	n.me = me;
	n.them = them;
	set_host(n.myhost, myhost);
	set_host(n.theirhost, theirhost);
	auth_new_nonce(n.client_nonce);
	*hs = n;
	return fd_endpoints(fd, false, hs, cause);
}

void
auth_hs_hello(const struct auth_hs *hs, struct auth_hello *h)
{
	/* Borrowed strings: the hello is packed, never released. */
	h->from_role = hs->me;
	h->from_host = (char *)hs->myhost;
	h->to_role = hs->them;
	h->to_host = (char *)hs->theirhost;
	h->nonce = (char *)hs->client_nonce;
}

/* Decode cred and check it is the claim the other side of hs owes. */
static int
hs_check(struct auth_hs *hs, const char *cred, enum auth_kind kind,
    uid_t *uid, gid_t *gid, char **cause)
{
	struct auth_claim got, want;
	uid_t u;
	gid_t g;

	if (auth_decode(cred, &got, &u, &g, cause) < 0)
		return -1;
	/* The server's nonce comes with its challenge. */
	if (kind == AUTH_CHALLENGE)
		strcpy(hs->server_nonce, got.server_nonce);
	hs_claim(hs, kind, false, &want);
	if (auth_claim_check(&got, u, &want, cause) < 0)
		return -1;
	if (uid)
		*uid = u;
	if (gid)
		*gid = g;
	return 0;
}

int
auth_hs_client_challenge(struct auth_hs *hs, const char *cred, char **proof,
    char **cause)
{
	struct auth_claim c;

	*proof = NULL;
	if (hs_check(hs, cred, AUTH_CHALLENGE, NULL, NULL, cause) < 0)
		return -1;
	hs_claim(hs, AUTH_PROOF, true, &c);
	return auth_encode(&c, proof, cause);
}

int
auth_hs_server_hello(struct auth_hs *hs, int fd, enum auth_role me,
    const char *myhost, const struct auth_hello *h, char **challenge,
    char **cause)
{
	struct auth_claim c;
	const char *why;

	struct auth_hs n;

	*challenge = NULL;
	if (!auth_hello_ok(h, &why)) {
		*cause = xasprintf("malformed hello: %s", why);
		return -1;
	}
	if (h->to_role != me || strcasecmp(h->to_host, myhost) != 0) {
		*cause = xasprintf("it asked for %s on %s, not us",
		    auth_role_name(h->to_role), h->to_host);
		return -1;
	}
	/* Built apart: myhost may be hs's own. */
	memset(&n, 0, sizeof(n));
	n.me = me;
	n.them = h->from_role;
	set_host(n.myhost, myhost);
	set_host(n.theirhost, h->from_host);
	strcpy(n.client_nonce, h->nonce);
	auth_new_nonce(n.server_nonce);
	*hs = n;
	if (fd_endpoints(fd, true, hs, cause) < 0)
		return -1;
	hs_claim(hs, AUTH_CHALLENGE, true, &c);
	return auth_encode(&c, challenge, cause);
}

int
auth_hs_server_proof(struct auth_hs *hs, const char *cred, uid_t *uid,
    gid_t *gid, char **cause)
{
	return hs_check(hs, cred, AUTH_PROOF, uid, gid, cause);
}

/* The blocking side's wait for one frame of type want (a credential's
 * string, or none); -1 with a cause naming what came instead. */
static int
recv_step(int fd, uint16_t want, int timeout_ms, char **cred, char **cause)
{
	struct wire_hdr h;
	struct msg_error e;
	uint8_t *body = NULL;
	struct rbuf r;
	int rc = -1;

	if (cred)
		*cred = NULL;
	/* A credential is some 300 bytes: whoever answers is not trusted
	 * with more of our memory than that before it proves itself. */
	if (wire_recv_max(fd, &h, &body, timeout_ms, AUTH_FRAME_MAX) < 0) {
		*cause = xstrdup("no answer to the handshake");
		errno = ETIMEDOUT;
		return -1;
	}
	errno = EACCES;
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	if (h.type == MSG_ERROR) {
		if (msg_error_unpack(&r, &e))
			*cause = xasprintf("it refused us: %s%s%s",
			    lsb_errmsg(e.code), e.detail ? ": " : "",
			    e.detail ? e.detail : "");
		else
			*cause = xstrdup("it refused us");
		msg_error_release(&e);
	} else if (h.type != want || (cred && (!get_str(&r, cred) ||
	    *cred == NULL)) || rbuf_end(&r) < 0) {
		*cause = xasprintf("it answered %s, not the handshake",
		    msg_type_name(h.type));
		if (cred) {
			free(*cred);
			*cred = NULL;
		}
	} else
		rc = 0;
	free(body);
	return rc;
}

static int
send_cred(int fd, uint16_t type, const char *cred)
{
	struct wbuf w;
	int rc;

	wbuf_init(&w);
	wbuf_begin(&w, type, 0, 0);
	put_str(&w, cred);
	wbuf_end_frame(&w);
	rc = wire_send(fd, &w);
	wbuf_release(&w);
	return rc;
}

int
auth_client_fd(int fd, enum auth_role me, const char *myhost,
    enum auth_role them, const char *theirhost, int timeout_ms, char **cause)
{
	struct auth_hello hello;
	struct auth_hs hs;
	struct wbuf w;
	char *cred = NULL, *proof = NULL;
	int rc = -1;

	if (auth_hs_client_init(&hs, fd, me, myhost, them, theirhost,
	    cause) < 0)
		return -1;
	auth_hs_hello(&hs, &hello);
	wbuf_init(&w);
	auth_hello_frame(&w, MSG_AUTH_HELLO, 0, &hello);
	rc = wire_send(fd, &w);
	wbuf_release(&w);
	if (rc < 0) {
		*cause = xstrdup("no answer to the handshake");
		errno = ETIMEDOUT;
		return -1;
	}
	rc = -1;
	if (recv_step(fd, MSG_AUTH_CHALLENGE, timeout_ms, &cred, cause) < 0)
		goto out;
	if (auth_hs_client_challenge(&hs, cred, &proof, cause) < 0) {
		char *why = *cause;

		*cause = xasprintf("it did not prove to be %s on %s: %s",
		    auth_role_name(them), theirhost, why);
		free(why);
		errno = EACCES;
		goto out;
	}
	if (send_cred(fd, MSG_AUTH, proof) < 0) {
		*cause = xstrdup("no answer to the handshake");
		errno = ETIMEDOUT;
		goto out;
	}
	if (recv_step(fd, MSG_AUTH_OK, timeout_ms, NULL, cause) < 0)
		goto out;
	rc = 0;
out:
	free(cred);
	free(proof);
	return rc;
}
