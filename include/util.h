/*
 * Small helpers every program links: allocation that cannot fail, growable
 * strings and string vectors, die/error/BUG.
 *
 * Ownership is in the names: x_init/x_release work on a struct the caller
 * owns, x_new/x_free allocate and free the struct too.  A "const char *"
 * argument is borrowed.
 */
#ifndef LSF_UTIL_H
#define LSF_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a)	__attribute__((format(printf, f, a)))
#define NORETURN	__attribute__((noreturn))
/* For a function in a hot loop that the compiler would call instead. */
#define ALWAYS_INLINE	inline __attribute__((always_inline))

/* The program name used as a prefix by die() and error(). */
extern const char *progname;

void	 *xmalloc(size_t);
void	 *xcalloc(size_t, size_t);
void	 *xrealloc(void *, size_t);
char	 *xstrdup(const char *);
char	 *xstrndup(const char *, size_t);
char	 *xasprintf(const char *, ...) PRINTF(1, 2);

/* Print "progname: message" to stderr and exit(255). */
void	  die(const char *, ...) PRINTF(1, 2) NORETURN;
/* Print "progname: message" to stderr and return -1. */
int	  error(const char *, ...) PRINTF(1, 2);
/*
 * Where die() and BUG() report: "progname: message" on stderr, or, once
 * a daemon has set one, the routine (its log), given the message alone.
 * The routine must not allocate: it reports running out of memory too.
 */
void	  set_die_routine(void (*)(const char *));
/* A broken invariant: print where, and abort. */
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
void	  bug_at(const char *, int, const char *, ...) PRINTF(3, 4) NORETURN;

/* Growable NUL-terminated buffer. */
struct strbuf {
	char	*buf;
	size_t	 len;
	size_t	 cap;
};
#define STRBUF_INIT { NULL, 0, 0 }
void	 sb_init(struct strbuf *);
void	 sb_release(struct strbuf *);
void	 sb_grow(struct strbuf *, size_t);
void	 sb_add(struct strbuf *, const void *, size_t);
void	 sb_adds(struct strbuf *, const char *);
void	 sb_addc(struct strbuf *, int);
void	 sb_addf(struct strbuf *, const char *, ...) PRINTF(2, 3);
void	 sb_vaddf(struct strbuf *, const char *, va_list);
void	 sb_reset(struct strbuf *);
/* Hand the buffer to the caller (never NULL) and reset the strbuf. */
char	*sb_detach(struct strbuf *);
/* Remove trailing whitespace. */
void	 sb_rtrim(struct strbuf *);

/* NULL-terminated vector of owned strings. */
struct strv {
	char	**v;
	size_t	  n;
	size_t	  cap;
};
#define STRV_INIT { NULL, 0, 0 }
void	 strv_init(struct strv *);
void	 strv_release(struct strv *);
void	 strv_push(struct strv *, const char *);
void	 strv_push_nodup(struct strv *, char *);
bool	 strv_contains(const struct strv *, const char *);
/* Split on blanks (spaces and tabs), skipping empty fields. */
void	 strv_split_ws(struct strv *, const char *);
void	 strv_copy(struct strv *dst, const struct strv *src);
/* The strings joined by sep, newly allocated. */
char	*strv_join(const struct strv *, const char *sep);

/* Read a whole file; -1 with errno on failure. */
int	 read_file(const char *path, struct strbuf *out);
/* Write all bytes, retrying on EINTR and short writes. */
int	 write_all(int fd, const void *, size_t);
/* Make a rename or a new file in dir durable; -1 with errno. */
int	 fsync_dir(const char *dir);

/* Parse a whole string as a number; -1 on any junk or overflow. */
int	 parse_long(const char *, long *);
int	 parse_double(const char *, double *);

/* String predicates. */
bool	 str_starts(const char *s, const char *prefix);
bool	 str_ends(const char *s, const char *suffix);
bool	 streq(const char *, const char *);	/* NULL-safe */
char	*str_trim(char *);			/* in place */
/* fnmatch-style '*' and '?' matching, used by bjobs -J and bkill -J. */
bool	 wildmatch(const char *pattern, const char *s);

/* Milliseconds on the monotonic clock. */
uint64_t mono_ms(void);
/* Seconds and microseconds of the wall clock. */
double	 wall_time(void);

/* CRC-32C (Castagnoli), used to check event-log records. */
uint32_t crc32c(uint32_t crc, const void *, size_t);
/* Its two implementations, for the tests: tables, and the CPU's crc32
 * instruction (the tables where the CPU lacks it). */
uint32_t crc32c_sw(uint32_t crc, const void *, size_t);
uint32_t crc32c_hw(uint32_t crc, const void *, size_t);
bool	 crc32c_hw_available(void);

/* Close every descriptor >= lowfd except keep (or -1). */
/* Close every descriptor from lowfd up but keep and those passed on. */
void	 close_fds_from(int lowfd, int keep);
/* Keep fd open across exec, and through close_fds_from. */
void	 fd_pass_on_exec(int fd);
int	 set_nonblock(int fd);
/* mkdir -p: path and its missing parents; -1 with errno if path is not
 * there after. */
int	 mkdir_parents(const char *path, mode_t mode);

#endif
