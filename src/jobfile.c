/*
 * Job files, LSF 10.1's format for bsub -yaml and -json: both are read
 * into one small tree (a mapping keeps each key's line) and the tree is
 * checked and applied once, so the two formats cannot drift apart.  The
 * YAML side walks libyaml's events, which carry marks; jansson gives no
 * line for a key, so the JSON side finds each key in the text, in
 * document order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <yaml.h>

#include "jobfile.h"

/*
 * The options bsub does that LSF takes in a job file, with the category
 * each belongs under.  The names are LSF's; of the aliases, those of
 * -app -B -b -C -c -G -H -i -J -N -outdir -q -r -u are as IBM documents
 * them, the others follow the same pattern.
 */
static const struct jkey {
	const char	*opt;
	const char	*alias;
	const char	*cat;
} keys[] = {
	{ "cwd", "cwd", "io" },
	{ "e", "errorAppend", "io" },
	{ "eo", "errorOverwrite", "io" },
	{ "i", "inputFile", "io" },
	{ "o", "outputAppend", "io" },
	{ "oo", "outputOverwrite", "io" },
	{ "outdir", "outputDir", "io" },
	{ "C", "coreLimit", "limit" },
	{ "c", "cpuTimeLimit", "limit" },
	{ "D", "dataLimit", "limit" },
	{ "F", "fileLimit", "limit" },
	{ "M", "memLimit", "limit" },
	{ "p", "processLimit", "limit" },
	{ "S", "stackLimit", "limit" },
	{ "v", "swapLimit", "limit" },
	{ "W", "runtimeLimit", "limit" },
	{ "B", "notifyJobDispatch", "notify" },
	{ "N", "notifyJobDone", "notify" },
	{ "u", "mailUser", "notify" },
	{ "app", "appName", "properties" },
	{ "E", "preExecCmd", "properties" },
	{ "env", "envVariables", "properties" },
	{ "Ep", "postExecCmd", "properties" },
	{ "J", "jobName", "properties" },
	{ "k", "checkpoint", "properties" },
	{ "K", "jobWaitDone", "properties" },
	{ "L", "loginShell", "properties" },
	{ "P", "projectName", "properties" },
	{ "q", "queueName", "properties" },
	{ "r", "rerun", "properties" },
	{ "sp", "jobPriority", "properties" },
	{ "m", "machines", "resource" },
	{ "n", "numTasks", "resource" },
	{ "R", "resReq", "resource" },
	{ "b", "specifiedStartTime", "schedule" },
	{ "G", "userGroup", "schedule" },
	{ "H", "hold", "schedule" },
	{ "t", "specifiedTerminateTime", "schedule" },
	{ "w", "dependency", "schedule" },
	{ "x", "exclusive", "schedule" },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *cats[] = {
	"io", "limit", "notify", "properties", "resource", "schedule"
};

enum { JN_NULL, JN_STR, JN_NUM, JN_BOOL, JN_REAL, JN_LIST, JN_MAP };

struct jent;
struct jnode {
	int		 type;
	char		*s;		/* JN_STR, JN_NUM */
	int		 line;
	struct jent	*ent;		/* JN_MAP */
	size_t		 n;
};
struct jent {
	char		*key;
	int		 line;
	struct jnode	 v;
};

static void
node_free(struct jnode *n)
{
	for (size_t i = 0; i < n->n; i++) {
		free(n->ent[i].key);
		node_free(&n->ent[i].v);
	}
	free(n->ent);
	free(n->s);
	memset(n, 0, sizeof(*n));
}

static struct jent *
map_add(struct jnode *m, const char *key, int line)
{
	struct jent *e;

	m->ent = xrealloc(m->ent, (m->n + 1) * sizeof(*m->ent));
	e = &m->ent[m->n++];
	memset(e, 0, sizeof(*e));
	e->key = xstrdup(key);
	e->line = line;
	return e;
}

/* YAML: one node from its first event on. */
static int
yaml_node(yaml_parser_t *p, yaml_event_t *ev, struct jnode *n,
    const char *name, char **cause)
{
	yaml_event_t k;
	int rc = 0;

	n->line = (int)ev->start_mark.line + 1;
	switch (ev->type) {
	case YAML_SCALAR_EVENT: {
		const char *v = (const char *)ev->data.scalar.value;

		/* A plain empty, ~ or null is null; "" is an empty string,
		 * which a flag takes as well. */
		if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		    (*v == '\0' || strcmp(v, "~") == 0 ||
		    strcmp(v, "null") == 0 || strcmp(v, "Null") == 0 ||
		    strcmp(v, "NULL") == 0))
			n->type = JN_NULL;
		else {
			n->type = JN_STR;
			n->s = xstrdup(v);
		}
		return 0;
	}
	case YAML_ALIAS_EVENT:
		*cause = xasprintf("%s:%d: aliases (*name) are not taken",
		    name, n->line);
		return -1;
	case YAML_SEQUENCE_START_EVENT:
		n->type = JN_LIST;
		for (;;) {
			struct jnode kid;

			if (!yaml_parser_parse(p, &k))
				goto bad;
			if (k.type == YAML_SEQUENCE_END_EVENT) {
				yaml_event_delete(&k);
				return 0;
			}
			memset(&kid, 0, sizeof(kid));
			rc = yaml_node(p, &k, &kid, name, cause);
			yaml_event_delete(&k);
			node_free(&kid);
			if (rc < 0)
				return -1;
		}
	case YAML_MAPPING_START_EVENT:
		n->type = JN_MAP;
		for (;;) {
			yaml_event_t v;
			struct jent *e;

			if (!yaml_parser_parse(p, &k))
				goto bad;
			if (k.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&k);
				return 0;
			}
			if (k.type != YAML_SCALAR_EVENT) {
				*cause = xasprintf("%s:%d: a key must be a "
				    "string", name,
				    (int)k.start_mark.line + 1);
				yaml_event_delete(&k);
				return -1;
			}
			e = map_add(n, (const char *)k.data.scalar.value,
			    (int)k.start_mark.line + 1);
			yaml_event_delete(&k);
			if (!yaml_parser_parse(p, &v))
				goto bad;
			rc = yaml_node(p, &v, &e->v, name, cause);
			yaml_event_delete(&v);
			if (rc < 0)
				return -1;
		}
	default:
		*cause = xasprintf("%s:%d: unexpected YAML", name, n->line);
		return -1;
	}
bad:
	*cause = xasprintf("%s:%d: %s", name,
	    (int)p->problem_mark.line + 1,
	    p->problem ? p->problem : "not YAML");
	return -1;
}

static int
yaml_tree(const char *name, const char *text, size_t len, struct jnode *top,
    char **cause)
{
	yaml_parser_t p;
	yaml_event_t ev;
	int rc = -1;

	if (!yaml_parser_initialize(&p)) {
		*cause = xasprintf("%s: out of memory", name);
		return -1;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	/* Stream and document start, then the document's node. */
	for (;;) {
		if (!yaml_parser_parse(&p, &ev)) {
			*cause = xasprintf("%s:%d: %s", name,
			    (int)p.problem_mark.line + 1,
			    p.problem ? p.problem : "not YAML");
			break;
		}
		if (ev.type == YAML_STREAM_START_EVENT ||
		    ev.type == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (ev.type == YAML_STREAM_END_EVENT) {
			/* An empty file: nothing asked. */
			top->type = JN_MAP;
			yaml_event_delete(&ev);
			rc = 0;
			break;
		}
		rc = yaml_node(&p, &ev, top, name, cause);
		yaml_event_delete(&ev);
		break;
	}
	yaml_parser_delete(&p);
	return rc;
}

/* JSON: where each key is in the text, found in document order. */
struct jscan {
	const char	*text;
	size_t		 len;
	size_t		 at;		/* searched up to here */
	size_t		 lineat;	/* line counted up to here */
	int		 line;
};

static int
scan_key(struct jscan *sc, const char *key)
{
	size_t kl = strlen(key);

	for (size_t i = sc->at; i + kl + 2 <= sc->len; i++) {
		size_t j = i + kl + 1;

		if (sc->text[i] != '"' || memcmp(sc->text + i + 1, key, kl) ||
		    sc->text[j] != '"')
			continue;
		for (j++; j < sc->len && strchr(" \t\r\n", sc->text[j]); j++)
			;
		if (j >= sc->len || sc->text[j] != ':')
			continue;
		for (; sc->lineat < i; sc->lineat++)
			if (sc->text[sc->lineat] == '\n')
				sc->line++;
		sc->at = j + 1;
		break;
	}
	/* A key written with escapes is not found: the last line then. */
	return sc->line;
}

static void
json_node(json_t *j, struct jnode *n, struct jscan *sc, int line)
{
	const char *k;
	json_t *v;

	n->line = line;
	switch (json_typeof(j)) {
	case JSON_NULL: n->type = JN_NULL; break;
	case JSON_TRUE: case JSON_FALSE: n->type = JN_BOOL; break;
	case JSON_REAL: n->type = JN_REAL; break;
	case JSON_ARRAY: n->type = JN_LIST; break;
	case JSON_STRING:
		n->type = JN_STR;
		n->s = xstrdup(json_string_value(j));
		break;
	case JSON_INTEGER:
		n->type = JN_NUM;
		n->s = xasprintf("%" JSON_INTEGER_FORMAT,
		    json_integer_value(j));
		break;
	case JSON_OBJECT:
		n->type = JN_MAP;
		json_object_foreach(j, k, v) {
			int l = scan_key(sc, k);
			struct jent *e = map_add(n, k, l);

			json_node(v, &e->v, sc, l);
		}
		break;
	}
}

static int
json_tree(const char *name, const char *text, size_t len, struct jnode *top,
    char **cause)
{
	struct jscan sc = { text, len, 0, 0, 1 };
	json_error_t err;
	json_t *j;

	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (j == NULL) {
		*cause = xasprintf("%s:%d: %s", name, err.line, err.text);
		return -1;
	}
	json_node(j, top, &sc, 1);
	json_decref(j);
	return 0;
}

static const struct jkey *
key_find(const char *k)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].opt, k) == 0 ||
		    strcmp(keys[i].alias, k) == 0)
			return &keys[i];
	return NULL;
}

const char *
jobfile_option(const char *key)
{
	const struct jkey *jk = key_find(key);

	return jk ? jk->opt : NULL;
}

static bool
is_cat(const char *k)
{
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (strcmp(cats[i], k) == 0)
			return true;
	return false;
}

static const char *
type_name(int t)
{
	switch (t) {
	case JN_LIST: return "a list";
	case JN_MAP: return "a mapping";
	case JN_BOOL: return "a boolean";
	case JN_REAL: return "a real number";
	default: return "null";
	}
}

/* One key under category cat; seen[] holds the line each option was
 * given on. */
static int
one_key(const char *name, const char *cat, const struct jent *e,
    int *seen, struct bsub_opts *g, bsub_unit_fn unit, char **cause)
{
	const struct jkey *jk = key_find(e->key);
	const struct jnode *v = &e->v;
	char *why = NULL;
	size_t i;

	if (jk == NULL) {
		*cause = xasprintf("%s:%d: %s: unknown key", name, e->line,
		    e->key);
		return -1;
	}
	if (strcmp(jk->cat, cat) != 0) {
		*cause = xasprintf("%s:%d: %s: belongs under %s, not %s",
		    name, e->line, e->key, jk->cat, cat);
		return -1;
	}
	i = (size_t)(jk - keys);
	if (seen[i]) {
		*cause = xasprintf("%s:%d: %s: -%s given again (line %d)",
		    name, e->line, e->key, jk->opt, seen[i]);
		return -1;
	}
	seen[i] = e->line;
	if (!bsub_opts_takes_value(jk->opt)) {
		if (v->type != JN_NULL &&
		    !(v->type == JN_STR && *v->s == '\0')) {
			*cause = xasprintf("%s:%d: %s: a flag takes null or an "
			    "empty value", name, e->line, e->key);
			return -1;
		}
		if (bsub_opts_one(g, jk->opt, NULL, unit, &why) == 0)
			return 0;
	} else {
		if (v->type != JN_STR && v->type != JN_NUM) {
			*cause = xasprintf("%s:%d: %s: a string is needed, not "
			    "%s", name, e->line, e->key, type_name(v->type));
			return -1;
		}
		if (bsub_opts_one(g, jk->opt, v->s, unit, &why) == 0)
			return 0;
	}
	*cause = xasprintf("%s:%d: %s: %s", name, e->line, e->key, why);
	free(why);
	return -1;
}

static int
apply_tree(const char *name, const struct jnode *top, struct bsub_opts *g,
    bsub_unit_fn unit, char **command, char **cause)
{
	int seen[NKEYS] = { 0 }, cmdline = 0;
	struct strv done = STRV_INIT;
	int rc = -1;

	if (top->type != JN_MAP) {
		*cause = xasprintf("%s:%d: the file must be a mapping of "
		    "categories and \"command\"", name, top->line);
		return -1;
	}
	for (size_t i = 0; i < top->n; i++) {
		const struct jent *e = &top->ent[i];
		const struct jkey *jk;

		if (strcmp(e->key, "command") == 0) {
			if (cmdline) {
				*cause = xasprintf("%s:%d: command: given "
				    "again (line %d)", name, e->line, cmdline);
				goto out;
			}
			if (e->v.type != JN_STR || *e->v.s == '\0') {
				*cause = xasprintf("%s:%d: command: a string "
				    "is needed", name, e->line);
				goto out;
			}
			cmdline = e->line;
			free(*command);
			*command = xstrdup(e->v.s);
			continue;
		}
		if (!is_cat(e->key)) {
			jk = key_find(e->key);
			*cause = jk ? xasprintf("%s:%d: %s: belongs under %s",
			    name, e->line, e->key, jk->cat) :
			    xasprintf("%s:%d: %s: unknown category", name,
			    e->line, e->key);
			goto out;
		}
		if (strv_contains(&done, e->key)) {
			*cause = xasprintf("%s:%d: %s: category given again",
			    name, e->line, e->key);
			goto out;
		}
		strv_push(&done, e->key);
		if (e->v.type == JN_NULL)
			continue;
		if (e->v.type != JN_MAP) {
			*cause = xasprintf("%s:%d: %s: a mapping of options is "
			    "needed", name, e->line, e->key);
			goto out;
		}
		for (size_t k = 0; k < e->v.n; k++)
			if (one_key(name, e->key, &e->v.ent[k], seen, g, unit,
			    cause) < 0)
				goto out;
	}
	rc = 0;
out:
	strv_release(&done);
	return rc;
}

int
jobfile_parse(const char *name, const char *text, size_t len,
    enum jobfile_kind kind, struct bsub_opts *g, bsub_unit_fn unit,
    char **command, char **cause)
{
	struct jnode top;
	int rc;

	memset(&top, 0, sizeof(top));
	*command = NULL;
	*cause = NULL;
	if (kind == JOBFILE_JSON)
		rc = json_tree(name, text, len, &top, cause);
	else
		rc = yaml_tree(name, text, len, &top, cause);
	if (rc == 0)
		rc = apply_tree(name, &top, g, unit, command, cause);
	node_free(&top);
	if (rc < 0) {
		free(*command);
		*command = NULL;
	}
	return rc;
}

int
jobfile_read(const char *path, enum jobfile_kind kind, struct bsub_opts *g,
    bsub_unit_fn unit, char **command, char **cause)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	*command = NULL;
	if (read_file(path, &sb) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		sb_release(&sb);
		return -1;
	}
	rc = jobfile_parse(path, sb.buf ? sb.buf : "", sb.len, kind, g, unit,
	    command, cause);
	sb_release(&sb);
	return rc;
}
