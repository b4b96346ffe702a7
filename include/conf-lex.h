/*
 * Private to src/conf*.c: the reader shared by every LSF configuration
 * file (logical lines, Begin/End sections, "KEY = value" blocks and
 * tables), small value helpers, and the per-file readers config_load()
 * calls.  Commands and daemons use conf.h only.
 */
#ifndef LSF_CONF_LEX_H
#define LSF_CONF_LEX_H

#include <stdbool.h>

#include "conf.h"

/* A logical line: comment removed, continuations joined, trimmed. */
struct conf_line {
	char	*text;
	int	 line;		/* physical line it starts on */
};

struct conf_file {
	char			*path;
	struct conf_line	*lines;
	int			 nlines;
};

/* '...' quotes like "..." (lsf.conf is read as a shell would). */
#define CONF_LEX_SQUOTE	0x01
/* #INCLUDE "file" is done (the lsb.* files); elsewhere warned about. */
#define CONF_LEX_INCLUDE	0x02

/* Read path into logical lines; -1 with errno if it cannot be read. */
int	 conf_file_read(struct conf_file *, const char *path, unsigned flags,
	    struct conf_diag *);
void	 conf_file_release(struct conf_file *);

/* Begin <name> ... End <name>: the lines strictly between the two. */
struct conf_section {
	char	*name;
	int	 line;		/* of the Begin line */
	int	 first;		/* index into conf_file.lines */
	int	 last;		/* index of the End line (exclusive) */
};
struct conf_sections {
	struct conf_section	*v;
	int			 n;
};
/* Split a file into sections; stray lines and bad nesting are errors. */
void	 conf_sections_read(const struct conf_file *,
	    struct conf_sections *, struct conf_diag *);
void	 conf_sections_release(struct conf_sections *);

/* A vertical section: "KEY = value" lines. */
struct conf_kv {
	char	*key;
	char	*val;		/* surrounding quotes removed */
	int	 line;
};
struct conf_kvs {
	struct conf_kv	*v;
	int		 n;
};
/* sec NULL: every line of the file (lsf.conf). */
void	 conf_kvs_read(const struct conf_file *,
	    const struct conf_section *, unsigned flags, struct conf_kvs *,
	    struct conf_diag *);
void	 conf_kvs_release(struct conf_kvs *);
/* Warn about a key set twice in one section (the last one wins). */
void	 conf_kvs_check_dups(const struct conf_kvs *, const char *path,
	    struct conf_diag *);
/*
 * Read a file of sections of one kind (lsb.queues' Queue,
 * lsb.applications' Application): fn gets each of them, another section
 * is warned about and ignored; a file that cannot be read is an error.
 */
void	 conf_read_sections(struct lsf_config *, const char *path,
	    const char *kind, void (*fn)(struct lsf_config *,
	    const struct conf_file *, const struct conf_section *,
	    struct conf_diag *), struct conf_diag *);
/*
 * A section of a file of named sections (lsb.queues' Queue,
 * lsb.applications' Application), what being what it defines: its
 * key = value lines read into kv (a key given twice warned about) and
 * its name, the value of key, returned; NULL, with an error, when the
 * section has none, a bad one, or one a section before it had (seen
 * gives that one's line, 0 when none).  kv is to be released either way.
 */
const char *conf_named_section(const struct conf_file *,
	    const struct conf_section *, const char *key, const char *what,
	    int (*seen)(const struct lsf_config *, const char *),
	    const struct lsf_config *, struct conf_kvs *kv,
	    struct conf_diag *);

/* A horizontal section: a header of column names, then one row a line. */
struct conf_val {
	char	*s;		/* parentheses or quotes removed */
	bool	 dflt;		/* written "-" or "()" */
};
struct conf_row {
	struct conf_val	*v;
	int		 n;
	int		 line;
};
struct conf_table {
	struct strv	 cols;
	int		 line;		/* of the header */
	struct conf_row	*rows;
	int		 nrows;
};
/* Rows whose value count differs from the header are reported, dropped. */
/* Files made only of tables (lsb.hosts, lsb.users): each known section
 * goes to its reader, others are warned about. */
typedef void (*conf_table_fn)(struct lsf_config *, const char *path,
    const struct conf_table *, struct conf_diag *);
struct conf_table_kind {
	const char	*section;
	conf_table_fn	 read;
};
void	 conf_read_tables(struct lsf_config *, const char *path,
	    const struct conf_table_kind *kinds, struct conf_diag *);
/* The same, where sections named kv_section are key = value lines
 * (lsb.hosts' HostPartition) and go to kv_fn. */
void	 conf_read_tables_kv(struct lsf_config *, const char *path,
	    const struct conf_table_kind *kinds, const char *kv_section,
	    void (*kv_fn)(struct lsf_config *, const struct conf_file *,
	    const struct conf_section *, struct conf_diag *),
	    struct conf_diag *);
void	 conf_table_read(const struct conf_file *,
	    const struct conf_section *, struct conf_table *,
	    struct conf_diag *);
void	 conf_table_release(struct conf_table *);
/* Column index of a header name (case-insensitive), or -1. */
int	 conf_table_col(const struct conf_table *, const char *);
/* The value in column c of a row; NULL for "-", "()" or c < 0. */
const char *conf_cell(const struct conf_row *, int c);
/* Warn, at the header line, about columns not in known (nor, if asked,
 * a load index or an lsf.shared resource). */
void	 conf_check_cols(const struct conf_table *, const char *path,
	    const char *const *known, const struct shared_conf *res,
	    bool loadidx, struct conf_diag *);
/* Report a missing required column (unless the section is empty). */
bool	 conf_need_col(const struct conf_table *, const char *path,
	    const char *sec, const char *col, struct conf_diag *);
/* Split a table line into values; -1 with *why on unbalanced brackets. */
int	 conf_split_values(const char *, struct conf_val **, int *,
	    const char **why);
void	 conf_vals_free(struct conf_val *, int);

/*
 * Make room for element n of an array that holds n: the arrays in
 * conf.h carry no capacity, so it doubles whenever n is a power of two.
 */
void	*conf_grow(void *, int n, size_t size);

/* Cluster hosts sorted by name, for lookups in big clusters. */
struct host_index {
	struct host_name {
		const char	*name;
		int		 idx;	/* into cluster.hosts */
	}	*v;
	int	 n;
};
void	 host_index_build(struct host_index *, const struct cluster_conf *);
/* Index into cluster.hosts of a name (any case), or -1. */
int	 host_index_find(const struct host_index *, const char *);
void	 host_index_release(struct host_index *);

/* Value helpers; -1 on junk or a value outside [min, max]. */
int	 conf_int(const char *, long min, long max, int *);
int	 conf_float(const char *, double min, double max, float *);
/* y yes n no (any case); -1 otherwise. */
int	 conf_bool(const char *, bool *);
/* Is key (any case) in the NULL-terminated list? */
bool	 conf_key_in(const char *key, const char *const *list);
/* Does the ASCII string hold only blanks (or is it NULL)? */
bool	 conf_blank(const char *);
/* Remove "..." (and '...' with CONF_LEX_SQUOTE) around a whole value. */
char	*conf_unquote(char *, unsigned flags);

/* Every index unset, with the "no threshold" value for its direction. */
/* One load value for index idx: a number >= 0, ut as fraction or %. */
int	 conf_load_value(const char *, int idx, float *, const char **why);

/* The readers config_load() runs, in this order. */
int	 lsf_conf_read(struct lsf_conf *, const char *envdir, unsigned parts,
	    struct conf_diag *);
void	 lsf_conf_init(struct lsf_conf *);
void	 lsf_conf_release(struct lsf_conf *);
void	 hosts_file_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 hosts_file_release(struct lsf_config *);
void	 shared_conf_read(struct shared_conf *, const char *path,
	    struct conf_diag *);
void	 shared_conf_release(struct shared_conf *);
void	 cluster_conf_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 cluster_conf_init(struct cluster_conf *);
void	 cluster_conf_release(struct cluster_conf *);
/* *dq_line: the line of DEFAULT_QUEUE, checked once queues are known. */
void	 lsb_params_read(struct lsb_params *, const char *path,
	    struct conf_diag *, int *dq_line);
void	 lsb_params_init(struct lsb_params *);
void	 lsb_params_release(struct lsb_params *);
void	 lsb_users_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 lsb_users_release(struct lsf_config *);
void	 lsb_hosts_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 lsb_hosts_release(struct lsf_config *);
void	 lsb_queues_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
/* After the queues, hosts and user groups it names. */
void	 lsb_resources_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 lsb_resources_release(struct lsf_config *);
void	 queue_conf_init(struct queue_conf *);
void	 queue_conf_release(struct queue_conf *);
void	 lsb_queues_release(struct lsf_config *);
void	 lsb_apps_read(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 app_conf_init(struct app_conf *);
void	 app_conf_release(struct app_conf *);
void	 lsb_apps_release(struct lsf_config *);

/*
 * Fairshare (conf-fairshare.c).  conf_fs_factor: 1 when key is one of
 * the factors (CPU_TIME_FACTOR ... HIST_HOURS) or switches
 * (ENABLE_HIST_RUN_TIME, RUN_TIME_DECAY), its value then set in f
 * and its FSF_* bit in *set (may be NULL), or *why set (an empty value
 * sets nothing); 0 otherwise.
 */
int	 conf_fs_factor(const char *key, const char *val, struct fs_factors *,
	    unsigned *set, const char **why);
/* After lsb.users: USER_SHARES names members, and comes back to no
 * group it started from. */
void	 lsb_users_check_shares(struct lsf_config *, const char *path,
	    struct conf_diag *);
/* lsb.hosts: one Begin HostPartition section; after the whole file,
 * its hosts (unknown ones dropped; none in two partitions). */
void	 lsb_hosts_read_partition(struct lsf_config *, const struct conf_file *,
	    const struct conf_section *, struct conf_diag *);
void	 lsb_hosts_check_partitions(struct lsf_config *, const char *path,
	    struct conf_diag *);
void	 lsb_hparts_release(struct lsf_config *);
/* After every queue: FAIRSHARE classified against lsb.users, the
 * factors over lsb.params', FAIRSHARE_QUEUES/QUEUE_GROUP checked, and
 * queue fairshare on the hosts of a partition warned about. */
void	 lsb_queues_check_fairshare(struct lsf_config *, const char *path,
	    struct conf_diag *);

/* Is name a Numeric/Boolean/String resource from lsf.shared? */
bool	 shared_has_resource(const struct shared_conf *, const char *);
/* A dynamic Numeric resource (an ELIM's index), else NULL. */
const struct resource_def *shared_numeric(const struct shared_conf *,
	    const char *);

/*
 * LSF keys read and not acted on (conf-keys.c).  Each reader keeps a
 * warn list; a key on it gets "KEY is not supported by this version and
 * has no effect" at its file:line, and its value is still checked
 * against the type LSF documents for it (a bad one is an error).
 */
enum conf_ktype {
	KT_STR,		/* anything */
	KT_INT,		/* an integer >= 0 */
	KT_SINT,	/* an integer, maybe negative */
	KT_NUM,		/* a number >= 0 */
	KT_BOOL,	/* y yes n no */
	KT_TIME,	/* [hour:]minute */
	KT_INTS,	/* one to three integers >= 0 */
	KT_INT_INF,	/* an integer >= 0 or "infinit" */
	KT_WORDS,	/* one of words, "A|B|C" */
};
struct conf_key_type {
	const char	*file;	/* "lsb.queues", ... */
	const char	*key;
	enum conf_ktype	 type;
	const char	*words;
};
const struct conf_key_type *conf_key_type(const char *file, const char *key);
/* NULL if v is of type t, else why not. */
const char *conf_key_type_check(const struct conf_key_type *t, const char *v);
const char *conf_key_type_name(const struct conf_key_type *t);
/* False if key is not in warn; else the warning (or the error for a
 * bad value) given, who prefixing the message ("queue q: "). */
bool	 conf_warn_key(const char *file, const char *const *warn,
	    const char *path, int line, const char *who, const char *key,
	    const char *val, struct conf_diag *);
/* A table's columns on warn, each warned about at the header line;
 * their values checked, at each row's line. */
void	 conf_warn_cols(const char *file, const char *const *warn,
	    const char *path, const struct conf_table *, const char *section,
	    struct conf_diag *);
/*
 * Every warn list, for the test that no key is accepted in silence:
 * n from 0 until NULL; *file gets the file it belongs to ("lsb.queues",
 * whose man page is man/lsb.queues.5).
 */
const char *const *conf_warn_list(int n, const char **file);
/* The warn lists, one a reader (conf-*.c). */
const char *const *lsb_queues_warn_keys(void);
const char *const *lsb_queues_warn_limits(void);
const char *const *lsb_params_warn_keys(void);
const char *const *lsb_apps_warn_keys(void);
const char *const *lsb_resources_warn_keys(void);
const char *const *cluster_conf_warn_keys(void);
const char *const *lsb_hosts_warn_cols(void);	/* Host */
const char *const *lsb_hostgroups_warn_cols(void);	/* HostGroup */
const char *const *lsb_users_warn_cols(void);	/* UserGroup */
const char *const *lsb_userlimits_warn_cols(void);	/* User */

#endif
