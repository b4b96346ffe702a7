/*
 * -o "field ..." [-json] output shared by bqueues and busers: each
 * command has its table of fields and a function giving a record's
 * value of one.
 */
#ifndef CMD_FIELDS_H
#define CMD_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fmt_field {
	const char	*name;		/* LSF's field name */
	const char	*alias;		/* or NULL */
	int		 width;		/* with "name:" */
	int		 id;		/* handed to value() */
};

struct fmt_set {
	const char		*command;	/* "bqueues": JSON COMMAND */
	const char		*count_key;	/* "QUEUES": JSON count */
	const struct fmt_field	*fields;
	size_t			 nfields;
	/* The record's value of field id, "-" when not set. */
	void			(*value)(const void *rec, int id, char *buf,
				    size_t len);
};

/*
 * Print n records (recsize bytes apart) in the format spec.  Returns 0,
 * or -1 with *bad (allocated) naming the word that is not a field.
 */
int	 fmt_print(const struct fmt_set *, const void *recs, size_t recsize,
	    uint32_t n, const char *spec, bool json, bool noheader,
	    char **bad);

#include <jansson.h>

/* s as a JSON string; bytes that are not UTF-8 become U+FFFD. */
json_t	*fmt_json_str(const char *s);
/* {"COMMAND":command, count_key:n, "RECORDS":[]}: append to RECORDS. */
json_t	*fmt_json_doc(const char *command, const char *count_key,
	    size_t n, json_t **records);
/* Print doc in LSF's layout and release it. */
void	 fmt_json_print(json_t *doc);

#endif
