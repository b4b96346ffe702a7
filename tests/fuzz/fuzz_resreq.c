/*
 * libFuzzer target: any string as bsub -R, through parse, the merges,
 * select, order and the display form, which must parse again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "resreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	float load[NLOADIDX] = { 0.1f, 0.2f, 0.3f, 0.4f, 1, 10, 1, 30,
	    1000, 2000, 4000 };
	struct strv res = STRV_INIT, texts = STRV_INIT;
	struct rr_host h = {
		.name = "hostA", .type = "X86_64", .model = "generic",
		.load = load, .ncpus = 4, .cpuf = 1, .maxmem = 8000,
		.maxswp = 1000, .maxtmp = 5000, .resources = &res,
		.server = true,
	};
	struct resreq rr, q, m;
	char *text = strndup((const char *)data, size), *cause = NULL;

	strv_push(&res, "bigmem");
	if (resreq_parse(&rr, text, "MB", &cause) == 0) {
		char *s = resreq_to_string(&rr);
		struct resreq again;

		(void)resreq_select(&rr, &h);
		(void)resreq_order_cmp(&rr, &h, &h);
		if (resreq_parse(&again, s, "MB", &cause) < 0)
			abort();
		resreq_release(&again);
		if (resreq_parse(&q, "select[mem>1] rusage[mem=100]", "MB",
		    &cause) == 0) {
			if (resreq_merge_queue(&m, &q, &rr, &cause) == 0)
				resreq_release(&m);
			free(cause);
			cause = NULL;
			resreq_release(&q);
		}
		free(s);
	}
	free(cause);
	cause = NULL;
	resreq_release(&rr);
	strv_push(&texts, text);
	strv_push(&texts, "span[hosts=1]");
	if (resreq_merge_job(&m, &texts, "MB", &cause) == 0)
		resreq_release(&m);
	free(cause);
	strv_release(&texts);
	strv_release(&res);
	free(text);
	return 0;
}
