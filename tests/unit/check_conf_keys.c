/*
 * No LSF key is accepted in silence.  Every key the readers know is
 * either handled (it acts, or its reader says what it does with it) or
 * on its reader's warn list; a warn-list key is warned about at its
 * file:line, its value checked against its LSF type, and listed in the
 * file's man page.  The handled keys are found in the readers' sources
 * (strcasecmp(k, "KEY") and the lsb.params integer table), so a key a
 * reader starts to handle and leaves on its warn list fails here, as
 * does one dropped from a warn list that its man page still lists.
 *
 * Run from the top of the tree (man/ and src/ are read).
 */
#include <check.h>
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "conftree.h"
#include "conf-lex.h"

static const char shared_text[] =
    "Begin Cluster\nClusterName\nc1\nEnd Cluster\n"
    "Begin HostType\nTYPENAME\nLINUX64\nEnd HostType\n"
    "Begin HostModel\nMODELNAME CPUFACTOR ARCHITECTURE\n"
    "X86 10 (x86_64)\nEnd HostModel\n"
    "Begin Resource\nRESOURCENAME TYPE INTERVAL INCREASING DESCRIPTION\n"
    "bigmem Boolean () () (Big memory)\nEnd Resource\n";

static void
setup(void)
{
	tree_make("check_conf_keys");
}

static void
teardown(void)
{
	tree_remove();
}

/* lsf.conf, lsf.shared; lsf.cluster with params (a Parameters body). */
static void
base_tree(const char *params)
{
	char *conf = xasprintf("LSF_CONFDIR=%s/conf\nLSB_SHAREDIR=%s/work\n",
	    dir, dir);
	char *cl = xasprintf("%sBegin ClusterAdmins\nAdministrators = "
	    "lsfadmin\nEnd ClusterAdmins\nBegin Host\nHOSTNAME model type "
	    "server RESOURCES\nh1 ! ! 1 ()\nEnd Host\n", params);

	put("lsf.conf", conf);
	put("conf/lsf.shared", shared_text);
	put("conf/lsf.cluster.c1", cl);
	free(conf);
	free(cl);
}

/* A value of t's type. */
static const char *
good_value(const struct conf_key_type *t)
{
	static char word[64];

	switch (t->type) {
	case KT_SINT:
		return "-2";
	case KT_NUM:
		return "1.5";
	case KT_BOOL:
		return "Y";
	case KT_INTS:
		return "2 4";
	case KT_WORDS:
		snprintf(word, sizeof(word), "%.*s",
		    (int)strcspn(t->words, "|"), t->words);
		return word;
	default:
		return "10";	/* an integer, a time, a string */
	}
}

static bool
has_msg(const struct conf_diag *d, const char *file, int line,
    const char *why)
{
	char *where = xasprintf("/%s:%d: ", file, line);
	bool found = false;

	for (size_t i = 0; i < d->msgs.n && !found; i++)
		found = strstr(d->msgs.v[i], where) != NULL &&
		    strstr(d->msgs.v[i], why) != NULL;
	free(where);
	return found;
}

static void
dump(const struct conf_diag *d)
{
	for (size_t i = 0; i < d->msgs.n; i++)
		fprintf(stderr, "  %s\n", d->msgs.v[i]);
}

/*
 * The text of a file holding key = value in a section of its own,
 * each key's line in *lines.  kind: how the file is laid out.
 */
static char *
kv_file(const char *file, const char *const *keys, bool bad, int *lines)
{
	struct strbuf sb = STRBUF_INIT;
	int line = 1, n = 0;

	for (int i = 0; keys[i] != NULL; i++, n++) {
		const struct conf_key_type *t = conf_key_type(file, keys[i]);
		const char *v = bad ? "x!" : t ? good_value(t) : "10";

		if (strcmp(file, "lsb.queues") == 0)
			sb_addf(&sb, "Begin Queue\nQUEUE_NAME = q%d\n", n);
		else if (strcmp(file, "lsb.applications") == 0)
			sb_addf(&sb, "Begin Application\nNAME = a%d\n", n);
		else if (strcmp(file, "lsb.resources") == 0)
			sb_addf(&sb, "Begin Limit\nNAME = l%d\nSLOTS = 1\n", n);
		else
			sb_addf(&sb, "Begin Parameters\n");
		line += strcmp(file, "lsb.resources") == 0 ? 3 :
		    strcmp(file, "lsb.params") == 0 ||
		    strcmp(file, "lsf.cluster") == 0 ? 1 : 2;
		sb_addf(&sb, "%s = %s\n", keys[i], v);
		lines[i] = line++;
		sb_addf(&sb, "End %s\n", strcmp(file, "lsb.queues") == 0 ?
		    "Queue" : strcmp(file, "lsb.applications") == 0 ?
		    "Application" : strcmp(file, "lsb.resources") == 0 ?
		    "Limit" : "Parameters");
		line++;
	}
	return sb_detach(&sb);
}

static const char *
file_path(const char *file)
{
	return strcmp(file, "lsf.cluster") == 0 ? "conf/lsf.cluster.c1" :
	    strcmp(file, "lsb.params") == 0 ? LSB "lsb.params" :
	    strcmp(file, "lsb.queues") == 0 ? LSB "lsb.queues" :
	    strcmp(file, "lsb.applications") == 0 ? LSB "lsb.applications" :
	    LSB "lsb.resources";
}

static const char *
file_base(const char *file)
{
	return strcmp(file, "lsf.cluster") == 0 ? "lsf.cluster.c1" : file;
}

/* Load a tree holding keys (each in a section of its own) in file. */
static void
load_keys(const char *file, const char *const *keys, bool bad, int *lines,
    struct conf_diag *d)
{
	struct lsf_config cfg;
	char *text = kv_file(file, keys, bad, lines);

	setup();
	if (strcmp(file, "lsf.cluster") == 0) {
		base_tree(text);
	} else {
		base_tree("");
		put(file_path(file), text);
	}
	free(text);
	conf_diag_init(d);
	(void)config_load(&cfg, dir, CONF_ALL, d);
	config_release(&cfg);
	teardown();
}

static size_t
count(const char *const *keys)
{
	size_t n = 0;

	while (keys[n] != NULL)
		n++;
	return n;
}

/* Each key of each kv warn list warns, at its line; a bad value of a
 * typed one is an error there. */
START_TEST(test_warn_lists_warn)
{
	const char *file;
	const char *const *keys;

	for (int n = 0; (keys = conf_warn_list(n, &file)) != NULL; n++) {
		size_t nk = count(keys);
		int *lines = xcalloc(nk + 1, sizeof(int));
		struct conf_diag d;

		if (strcmp(file, "lsb.hosts") == 0 ||
		    strcmp(file, "lsb.users") == 0) {
			free(lines);
			continue;	/* columns: test_warn_columns */
		}
		load_keys(file, keys, false, lines, &d);
		for (size_t i = 0; i < nk; i++) {
			char *why = xasprintf("%s is not supported by this "
			    "version and has no effect", keys[i]);

			if (!has_msg(&d, file_base(file), lines[i], why)) {
				dump(&d);
				ck_abort_msg("%s: %s (line %d) is on the warn "
				    "list but not warned about: is it "
				    "handled too?", file, keys[i], lines[i]);
			}
			free(why);
		}
		ck_assert_int_eq(d.nerrors, 0);
		conf_diag_release(&d);

		load_keys(file, keys, true, lines, &d);
		for (size_t i = 0; i < nk; i++) {
			const struct conf_key_type *t = conf_key_type(file,
			    keys[i]);
			char *why = xasprintf("bad %s \"x!\"", keys[i]);

			ck_assert_msg(t != NULL, "%s: %s has no type in "
			    "src/conf-keys.c", file, keys[i]);
			if (t->type != KT_STR && !has_msg(&d, file_base(file),
			    lines[i], why)) {
				dump(&d);
				ck_abort_msg("%s: %s = x! is no error", file,
				    keys[i]);
			}
			free(why);
		}
		conf_diag_release(&d);
		free(lines);
	}
}
END_TEST

START_TEST(test_warn_columns)
{
	struct lsf_config cfg;
	struct conf_diag d;

	setup();
	base_tree("");
	put(LSB "lsb.hosts", "Begin Host\n"
	    "HOST_NAME MXJ CHKPNT AFFINITY bigmem\n"	/* 2 */
	    "h1 2 () Y 1\n"
	    "End Host\n"
	    "Begin HostGroup\n"
	    "GROUP_NAME GROUP_MEMBER GROUP_ADMIN CONDENSE\n"	/* 6 */
	    "g1 (h1) (lsfadmin) maybe\n"			/* 7 */
	    "End HostGroup\n");
	put(LSB "lsb.users", "Begin UserGroup\n"
	    "GROUP_NAME GROUP_MEMBER GROUP_ADMIN PRIORITY\n"	/* 2 */
	    "ug (u1 u2) (u1) 5\n"
	    "End UserGroup\n"
	    "Begin User\n"
	    "USER_NAME MAX_JOBS PRIORITY\n"			/* 6 */
	    "u1 1 high\n"					/* 7 */
	    "End User\n");
	conf_diag_init(&d);
	(void)config_load(&cfg, dir, CONF_ALL, &d);
	ck_assert(has_msg(&d, "lsb.hosts", 2, "Host column CHKPNT is not "
	    "supported"));
	ck_assert(has_msg(&d, "lsb.hosts", 2, "Host column AFFINITY"));
	ck_assert(has_msg(&d, "lsb.hosts", 2, "Host column bigmem: not a "
	    "dynamic numeric resource"));
	ck_assert(has_msg(&d, "lsb.hosts", 6, "HostGroup column GROUP_ADMIN"));
	ck_assert(has_msg(&d, "lsb.hosts", 6, "HostGroup column CONDENSE"));
	ck_assert(has_msg(&d, "lsb.hosts", 7, "bad CONDENSE \"maybe\""));
	ck_assert(has_msg(&d, "lsb.users", 2, "UserGroup column GROUP_ADMIN"));
	ck_assert(has_msg(&d, "lsb.users", 2, "UserGroup column PRIORITY"));
	ck_assert(has_msg(&d, "lsb.users", 6, "User column PRIORITY"));
	ck_assert(has_msg(&d, "lsb.users", 7, "bad PRIORITY \"high\""));
	ck_assert_int_eq(d.nerrors, 2);
	config_release(&cfg);
	conf_diag_release(&d);
	teardown();
}
END_TEST

/* The .It entries of the "Keys accepted with a warning" list. */
static void
man_keys(const char *file, struct strv *out)
{
	char *path = xasprintf("man/%s.5", file);
	struct strbuf sb = STRBUF_INIT;
	bool in = false;
	char *save = NULL;

	ck_assert_msg(read_file(path, &sb) == 0, "cannot read %s", path);
	for (char *l = strtok_r(sb.buf, "\n", &save); l != NULL;
	    l = strtok_r(NULL, "\n", &save)) {
		if (strstr(l, "Keys accepted with a warning") != NULL &&
		    (str_starts(l, ".Ss ") || str_starts(l, ".Em ")))
			in = true;
		else if (in && str_starts(l, ".El"))
			in = false;
		else if (in && str_starts(l, ".It "))
			strv_push(out, l + 4);
	}
	sb_release(&sb);
	free(path);
}

START_TEST(test_man_pages)
{
	static const char *const files[] = { "lsb.queues", "lsb.params",
	    "lsb.applications", "lsb.resources", "lsf.cluster", "lsb.hosts",
	    "lsb.users", NULL };

	for (int f = 0; files[f] != NULL; f++) {
		struct strv man = STRV_INIT, warn = STRV_INIT;
		const char *const *keys, *file;

		man_keys(files[f], &man);
		for (int n = 0; (keys = conf_warn_list(n, &file)) != NULL; n++)
			for (int i = 0; strcmp(file, files[f]) == 0 &&
			    keys[i] != NULL; i++)
				if (!strv_contains(&warn, keys[i]))
					strv_push(&warn, keys[i]);
		for (size_t i = 0; i < warn.n; i++)
			ck_assert_msg(strv_contains(&man, warn.v[i]),
			    "%s is on %s's warn list but not in man/%s.5 "
			    "(Keys accepted with a warning)", warn.v[i],
			    files[f], files[f]);
		for (size_t i = 0; i < man.n; i++)
			ck_assert_msg(strv_contains(&warn, man.v[i]),
			    "man/%s.5 lists %s as accepted with a warning, "
			    "but %s's warn list has it not (implemented? "
			    "then document it with the others)", files[f],
			    man.v[i], files[f]);
		strv_release(&man);
		strv_release(&warn);
	}
}
END_TEST

/*
 * The keys a reader handles, from its source: every "KEY" compared with
 * strcasecmp against the key, and lsb.params' integer table.
 */
static void
handled_keys(const char *src, struct strv *out)
{
	static const char *const pats[] = {
		"strcasecmp\\((k|e->key|base|key), \"([A-Z][A-Z0-9_/]*)\"\\)",
		"\\{ \"([A-Z][A-Z0-9_]*)\", offsetof",
	};
	struct strbuf sb = STRBUF_INIT;

	ck_assert_msg(read_file(src, &sb) == 0, "cannot read %s", src);
	for (size_t p = 0; p < ARRAY_SIZE(pats); p++) {
		regex_t re;
		regmatch_t m[3];
		const char *s = sb.buf;
		int g = p == 0 ? 2 : 1;

		ck_assert_int_eq(regcomp(&re, pats[p], REG_EXTENDED), 0);
		while (regexec(&re, s, 3, m, 0) == 0) {
			char *k = xstrndup(s + m[g].rm_so,
			    (size_t)(m[g].rm_eo - m[g].rm_so));

			if (!strv_contains(out, k))
				strv_push(out, k);
			free(k);
			s += m[0].rm_eo;
		}
		regfree(&re);
	}
	sb_release(&sb);
}

START_TEST(test_handled_not_warned)
{
	static const struct {
		const char	*file;
		const char	*src;
	} readers[] = {
		{ "lsb.queues", "src/conf-queues.c" },
		{ "lsb.params", "src/conf-params.c" },
		{ "lsb.applications", "src/conf-apps.c" },
		{ "lsb.resources", "src/conf-resources.c" },
		{ "lsf.cluster", "src/conf-cluster.c" },
	};

	for (size_t r = 0; r < ARRAY_SIZE(readers); r++) {
		struct strv keys = STRV_INIT;
		const char *const *warn, *file;
		struct conf_diag d;
		int *lines;

		handled_keys(readers[r].src, &keys);
		ck_assert_msg(keys.n > 0, "no keys found in %s",
		    readers[r].src);
		/* Section names and the name keys are no keys to feed. */
		for (size_t i = 0; i < keys.n; i++) {
			static const char *const skip[] = { "QUEUE_NAME",
			    "NAME", "PARAMETERS", "CLUSTERADMINS", "HOST",
			    "RESOURCEMAP", "LIMIT", "ADMINISTRATORS",
			    "PER_", NULL };

			if (conf_key_in(keys.v[i], skip)) {
				free(keys.v[i]);
				keys.v[i--] = keys.v[--keys.n];
				keys.v[keys.n] = NULL;
			}
		}
		/* Handled and on a warn list: the warning would lie. */
		for (int n = 0; (warn = conf_warn_list(n, &file)) != NULL; n++)
			for (size_t i = 0; strcmp(file, readers[r].file) == 0 &&
			    i < keys.n; i++)
				ck_assert_msg(!conf_key_in(keys.v[i], warn),
				    "%s: %s is handled (%s) and on the warn "
				    "list: delete its line from the list",
				    file, keys.v[i], readers[r].src);
		/* Fed to the reader, no handled key is unknown or
		 * unsupported. */
		lines = xcalloc(keys.n + 1, sizeof(int));
		load_keys(readers[r].file, (const char *const *)keys.v, false,
		    lines, &d);
		for (size_t i = 0; i < keys.n; i++) {
			char *w1 = xasprintf("unknown parameter %s ", keys.v[i]);
			char *w2 = xasprintf("%s is not supported", keys.v[i]);

			ck_assert_msg(!has_msg(&d, file_base(readers[r].file),
			    lines[i], w1) && !has_msg(&d,
			    file_base(readers[r].file), lines[i], w2),
			    "%s: %s, handled in %s, is unknown to its reader",
			    readers[r].file, keys.v[i], readers[r].src);
			free(w1);
			free(w2);
		}
		conf_diag_release(&d);
		free(lines);
		strv_release(&keys);
	}
}
END_TEST

/* #INCLUDE: relative, nested, in a section; errors name the included
 * file; a missing file and a loop are errors. */
START_TEST(test_include)
{
	struct lsf_config cfg;
	struct conf_diag d;
	const struct queue_conf *q;
	bool listed = false;

	setup();
	base_tree("");
	put(LSB "lsb.queues", "#INCLUDE \"q/night\"  # the night queue\n"
	    "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n");
	put(LSB "q/night", "Begin Queue\nQUEUE_NAME = night\n"
	    "#INCLUDE \"keys\"\nEnd Queue\n");
	put(LSB "q/keys", "PRIORITY = 44\nCHUNK_JOB_SIZE = 2\n");
	conf_diag_init(&d);
	ck_assert_int_eq(config_load(&cfg, dir, CONF_ALL, &d), 0);
	q = config_queue(&cfg, "night");
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(q->priority, 44);
	ck_assert_ptr_nonnull(config_queue(&cfg, "normal"));
	ck_assert(has_msg(&d, "q/keys", 2, "queue night: CHUNK_JOB_SIZE is "
	    "not supported"));
	for (size_t i = 0; i < d.files.n; i++)
		listed |= str_ends(d.files.v[i], "/q/keys");
	ck_assert(listed);
	config_release(&cfg);
	conf_diag_release(&d);

	put(LSB "q/keys", "PRIORITY = high\n#INCLUDE \"keys\"\n");
	put(LSB "lsb.params", "#INCLUDE \"nowhere\"\n#INCLUDE \"/dev/zero\"\n");
	conf_diag_init(&d);
	ck_assert_int_lt(config_load(&cfg, dir, CONF_ALL, &d), 0);
	ck_assert(has_msg(&d, "q/keys", 1, "queue night: bad PRIORITY"));
	ck_assert(has_msg(&d, "q/keys", 2, "includes itself"));
	ck_assert(has_msg(&d, "lsb.params", 1, "#INCLUDE \"nowhere\": cannot "
	    "read"));
	ck_assert(has_msg(&d, "lsb.params", 2, "not a regular file"));
	config_release(&cfg);
	conf_diag_release(&d);
	teardown();
}
END_TEST

static Suite *
keys_suite(void)
{
	Suite *s = suite_create("conf_keys");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_warn_lists_warn);
	tcase_add_test(tc, test_warn_columns);
	tcase_add_test(tc, test_man_pages);
	tcase_add_test(tc, test_handled_not_warned);
	tcase_add_test(tc, test_include);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(keys_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
