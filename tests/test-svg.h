#ifndef MMCMP_TEST_SVG_H
#define MMCMP_TEST_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * test-svg: a check that markup is well-formed XML as the report writes
 * it (elements, attributes in double quotes, entities, no comments or
 * CDATA), for tests/test-svg.c and tests/test-report.c. xml_balanced()
 * returns true when every element of s[0..n) that opens is closed in
 * order, no '<' or '&' appears raw in text or attribute values, and at
 * least one element was seen; *elements counts the elements.
 */
static inline bool xml_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':';
}

static inline bool xml_entity_ok(const char *p, const char *end)
{
	static const char *const ents[] = {"&amp;",  "&lt;",  "&gt;",
					   "&quot;", "&#39;", "&#177;"};

	for (size_t i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
		size_t len = strlen(ents[i]);

		if ((size_t)(end - p) >= len && !memcmp(p, ents[i], len))
			return true;
	}
	return false;
}

static inline bool xml_balanced(const char *s, size_t n, size_t *elements)
{
	const char *stack[256];
	size_t len[256], depth = 0;
	const char *p = s, *end = s + n;

	*elements = 0;
	while (p < end) {
		if (*p == '&') {
			if (!xml_entity_ok(p, end))
				return false;
			p++;
			continue;
		}
		if (*p != '<') {
			p++;
			continue;
		}
		p++;
		if (p < end && *p == '/') {
			const char *name = ++p;

			while (p < end && xml_name_char(*p))
				p++;
			if (!depth || len[depth - 1] != (size_t)(p - name) ||
			    memcmp(stack[depth - 1], name, len[depth - 1]) ||
			    p >= end || *p != '>')
				return false;
			depth--;
			p++;
			continue;
		}
		{
			const char *name = p;
			size_t nlen;

			while (p < end && xml_name_char(*p))
				p++;
			nlen = (size_t)(p - name);
			if (!nlen)
				return false;
			/* Attributes: name="value" with no raw < or &. */
			for (;;) {
				while (p < end && *p == ' ')
					p++;
				if (p >= end)
					return false;
				if (*p == '>' || *p == '/')
					break;
				while (p < end && xml_name_char(*p))
					p++;
				if (p + 1 >= end || p[0] != '=' || p[1] != '"')
					return false;
				p += 2;
				while (p < end && *p != '"') {
					if (*p == '<' ||
					    (*p == '&' &&
					     !xml_entity_ok(p, end)))
						return false;
					p++;
				}
				if (p >= end)
					return false;
				p++;
			}
			(*elements)++;
			if (*p == '/') {
				if (p + 1 >= end || p[1] != '>')
					return false;
				p += 2;
				continue;
			}
			p++;
			if (depth == 256)
				return false;
			stack[depth] = name;
			len[depth++] = nlen;
		}
	}
	return !depth && *elements > 0;
}

#endif /* MMCMP_TEST_SVG_H */
