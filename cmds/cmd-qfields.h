/*
 * bqueues -o "field[:[-][width]] ... [delimiter='c']" [-json]: LSF's
 * custom queue fields, as a table or as one JSON document.
 */
#ifndef CMD_QFIELDS_H
#define CMD_QFIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "proto.h"

/* A value of a queue as bqueues shows it ("-" when not set). */
void	 qfmt_status(int status, bool longform, char *buf, size_t len);
void	 qfmt_limit(int v, char *buf, size_t len);
void	 qfmt_plimit(float v, char *buf, size_t len);
void	 qfmt_mem(int64_t kb, char *buf, size_t len);
/* The value of another configured key of the queue, or NULL. */
const char *qfmt_extra(const struct queue_info *, const char *key);

/*
 * Print qs in the format spec.  Returns 0, or -1 with *bad naming the
 * word that is not a field (allocated).
 */
int	 qfmt_print(const struct queue_info *qs, uint32_t n, const char *spec,
	    bool json, bool noheader, char **bad);

#endif
