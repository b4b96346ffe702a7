/* libFuzzer target: any bytes as one ELIM output line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elim.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elim_pair pairs[ELIM_MAX_PAIRS];
	const char *why;
	char *line;
	int n;

	line = malloc(size + 1);
	if (line == NULL)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	n = elim_parse_line(line, pairs, &why);
	if (n > ELIM_MAX_PAIRS)
		abort();
	for (int i = 0; i < n; i++)
		if (strlen(pairs[i].name) > ELIM_MAX_NAME)
			abort();
	free(line);
	return 0;
}
