/*
 * lsb.queues JOB_CONTROLS: what the SUSPEND, RESUME and TERMINATE
 * actions do for a queue's jobs in place of LSF's defaults.  Pure code:
 * text in, actions out.
 *
 *	JOB_CONTROLS = SUSPEND[action] RESUME[action] TERMINATE[action]
 *
 * Any of the three, in any order, each at most once; keywords in any
 * case.  An action is
 * - a signal name with its SIG prefix (SIGTSTP): sent to the job;
 * - CHKPNT (SUSPEND and TERMINATE only): a checkpointable job is
 *   checkpointed (echkpnt), then stopped with SIGSTOP for SUSPEND or
 *   killed with the default INT, TERM, KILL sequence for TERMINATE; a
 *   job that is not checkpointable just is;
 * - anything else: a /bin/sh command line, unquoted.  Brackets inside it
 *   must balance: the action ends at the "]" matching its "[".
 * An action left out keeps LSF's default (JOBCTL_DEFAULT).
 */
#ifndef LSF_JOBCTL_H
#define LSF_JOBCTL_H

enum jobctl_op {
	JOBCTL_SUSPEND,
	JOBCTL_RESUME,
	JOBCTL_TERMINATE,
	JOBCTL_NOPS
};

enum jobctl_kind {
	JOBCTL_DEFAULT = 0,		/* not given: LSF's default */
	JOBCTL_SIGNAL,
	JOBCTL_CHKPNT,
	JOBCTL_COMMAND
};

struct jobctl_action {
	enum jobctl_kind kind;
	int		 sig;		/* JOBCTL_SIGNAL: its number */
	char		*text;		/* as written, trimmed; NULL: default */
};

struct jobctl {
	struct jobctl_action op[JOBCTL_NOPS];
};

void		 jobctl_init(struct jobctl *);
void		 jobctl_release(struct jobctl *);
/* The whole value.  -1 with an allocated *cause on error; *jc is then
 * all defaults. */
int		 jobctl_parse(struct jobctl *, const char *, char **cause);
/* One action's text (the part between the brackets) for op: what the
 * execution host does with what mbatchd sends it.  NULL or empty is the
 * default.  -1 with an allocated *cause on error (a->kind is then
 * JOBCTL_DEFAULT). */
int		 jobctl_action_parse(struct jobctl_action *, enum jobctl_op,
		    const char *, char **cause);
void		 jobctl_action_release(struct jobctl_action *);
/* "SUSPEND", "RESUME", "TERMINATE". */
const char	*jobctl_op_name(enum jobctl_op);
/* What is accepted but worth a word (a command that would deadlock),
 * allocated; NULL when nothing is. */
char		*jobctl_warning(const struct jobctl *, enum jobctl_op);

#endif
