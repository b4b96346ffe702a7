/*
 * An allocator for processes that live a few milliseconds: the commands,
 * when they are built with musl (cmds/cmd-malloc.c puts it behind
 * malloc).  See src/shortalloc.c for why.
 */
#ifndef SHORTALLOC_H
#define SHORTALLOC_H

#include <stddef.h>

void	*sa_malloc(size_t);
void	*sa_calloc(size_t, size_t);
void	*sa_realloc(void *, size_t);
void	 sa_free(void *);
void	*sa_memalign(size_t, size_t);
size_t	 sa_usable_size(const void *);

#endif
