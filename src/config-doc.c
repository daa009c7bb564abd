/* config-doc: the key reference of configs/README.md, from the tables. */
#include "config.h"

#include "config-internal.h"
#include "strbuf.h"

static void describe_type(struct strbuf *out, const struct key *k)
{
	static const char *const names[] = {
		[KEY_STRING] = "string",
		[KEY_REGEX] = "regex",
		[KEY_JSON_PATH] = "JSON path",
		[KEY_BOOL] = "boolean",
		[KEY_ENV] = "map of strings",
		[KEY_ARGV] = "list of strings",
		[KEY_COMMANDS] = "list of commands",
		[KEY_COMMAND] = "list of strings, or string",
		[KEY_PARAMS] = "map of lists",
		[KEY_METRICS] = "list of metrics",
		[KEY_EXTRACT] = "mapping",
		[KEY_WORKLOADS] = "list of workloads",
		[KEY_BUILDS] = "map of builds",
		[KEY_CGROUP] = "mapping",
		[KEY_NAMES] = "list of strings",
		[KEY_LIMITS] = "map of strings",
		[KEY_SETTINGS] = "map of strings",
		[KEY_KERNELS] = "map of kernels",
		[KEY_VM] = "mapping",
		[KEY_MACHINE] = "mapping",
	};

	switch (k->type) {
	case KEY_INT:
		strbuf_addf(out, "integer, %g to %g", k->min, k->max);
		break;
	case KEY_NUMBER:
		strbuf_addf(out, "number, %g to %g", k->min, k->max);
		break;
	case KEY_CHOICE:
		config_add_choices(out, k->choices, "`");
		break;
	default:
		strbuf_addstr(out, names[k->type]);
		break;
	}
}

void config_describe(struct strbuf *out)
{
	for (size_t i = 0; i < config_levels_nr; i++) {
		const struct level *lv = config_levels[i];

		strbuf_addf(out, "%s### %s\n\n%s\n\n", i ? "\n" : "", lv->title,
			    lv->intro);
		strbuf_addstr(out, "| Key | Type | Default | Description |\n"
				   "| --- | --- | --- | --- |\n");
		for (size_t j = 0; j < lv->nr; j++) {
			const struct key *k = &lv->keys[j];

			strbuf_addf(out, "| `%s` | ", k->name);
			describe_type(out, k);
			if (k->required)
				strbuf_addstr(out, " | required");
			else if (k->def_doc)
				strbuf_addf(out, " | %s", k->def_doc);
			else if (k->def)
				strbuf_addf(out, " | `%s`", k->def);
			else
				strbuf_addstr(out, " | none");
			strbuf_addf(out, " | %s", k->help);
			if (k->needs)
				strbuf_addf(out, " Needs `%s`.", k->needs);
			strbuf_addstr(out, " |\n");
		}
	}
}
