/*
 * config_save: keep a copy of the configuration files mbatchd accepted,
 * so that a start after a refused reconfig (the broken file still on
 * disk) can run on what was last accepted instead of not at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* Empty dir of the files a copy holds (it has no subdirectories). */
static int
empty_dir(const char *dir)
{
	struct dirent *de;
	DIR *dp;
	int rc = 0;

	if ((dp = opendir(dir)) == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(dp), de->d_name, 0) < 0)
			rc = -1;
	}
	closedir(dp);
	return rc;
}

/* Copy path into dir under its own name, durably. */
static int
copy_in(const char *path, const char *dir, char **cause)
{
	struct strbuf sb = STRBUF_INIT;
	char *to = xasprintf("%s/%s", dir, base_name(path));
	int fd = -1, rc = -1;

	if (read_file(path, &sb) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, sb.buf, sb.len) < 0 || fsync(fd) < 0) {
		*cause = xasprintf("%s: %s", to, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	sb_release(&sb);
	free(to);
	return rc;
}

int
config_save(const struct lsf_config *cfg, const char *link, char **cause)
{
	char cur[4096], *parent, *slash, *dir = NULL, *tmp = NULL;
	const char *next;
	ssize_t n;
	int rc = -1;

	*cause = NULL;
	parent = xstrdup(link);
	if ((slash = strrchr(parent, '/')) != NULL)
		*slash = '\0';
	/* The directory the link does not name now. */
	n = readlink(link, cur, sizeof(cur) - 1);
	cur[n > 0 ? n : 0] = '\0';
	next = n >= 2 && strcmp(cur + n - 2, ".0") == 0 ? "1" : "0";
	dir = xasprintf("%s.%s", link, next);
	if (empty_dir(dir) < 0 ||
	    (mkdir(dir, 0755) < 0 && errno != EEXIST)) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < cfg->files.n; i++)
		if (copy_in(cfg->files.v[i], dir, cause) < 0)
			goto out;
	if (fsync_dir(dir) < 0) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		goto out;
	}
	/* Turn the link: one rename, so it names one whole copy or the
	 * other, whenever a crash comes. */
	tmp = xasprintf("%s.tmp", link);
	(void)unlink(tmp);
	if (symlink(base_name(dir), tmp) < 0 || rename(tmp, link) < 0 ||
	    fsync_dir(slash != NULL ? parent : ".") < 0) {
		*cause = xasprintf("%s: %s", link, strerror(errno));
		(void)unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(parent);
	free(dir);
	free(tmp);
	return rc;
}
