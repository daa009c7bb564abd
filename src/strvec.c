/* strvec: NULL-terminated string arrays. */
#include "strvec.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

char *strvec_empty[] = {NULL};

void strvec_init(struct strvec *sv)
{
	sv->v = strvec_empty;
	sv->nr = 0;
	sv->alloc = 0;
}

void strvec_push_nodup(struct strvec *sv, char *s)
{
	if (sv->v == strvec_empty) {
		/* As strvec_init(): the shared empty array holds nothing. */
		sv->v = NULL;
		sv->nr = 0;
		sv->alloc = 0;
	}
	ALLOC_GROW(sv->v, sv->nr + 2, sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	strvec_push_nodup(sv, xstrdup(s));
}

void strvec_push_once(struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return;
	strvec_push(sv, s);
}

void strvec_pushv(struct strvec *sv, char *const *v)
{
	for (; *v; v++)
		strvec_push(sv, *v);
}

void strvec_clear(struct strvec *sv)
{
	if (!sv)
		return;
	if (sv->v != strvec_empty) {
		for (size_t i = 0; i < sv->nr; i++)
			free(sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}
