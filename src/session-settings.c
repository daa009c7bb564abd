/* session-settings: the kernel settings written for a run, put back after. */
#include "session-internal.h"

#include "config.h"
#include "executor.h"
#include "machine.h"
#include "run-data.h"
#include "settings.h"
#include "store.h"

int session_apply_settings(struct session *s, const struct kv_list *kv,
			   size_t b0, size_t b1, struct strbuf *err)
{
	for (size_t i = 0; i < kv->nr; i++) {
		const struct setting_change *c;

		if (settings_apply(s->settings, kv->v[i].key, kv->v[i].value,
				   err))
			return -1;
		c = settings_change(s->settings, settings_nr(s->settings) - 1);
		for (size_t b = b0; b < b1; b++)
			if (store_run_setting_add(s->st, s->runs[b].sum.id,
						  c->path, c->old_value,
						  c->new_value, err))
				return -1;
	}
	/* The machine facts create_runs() read may have changed: again. */
	for (size_t b = b0; kv->nr && b < b1; b++) {
		struct machine_info m = {0};
		int r;

		executor_machine_info(s->ex, &m);
		r = store_run_set_tunables(s->st, s->runs[b].sum.id, &m, err);
		machine_info_release(&m);
		if (r)
			return -1;
	}
	return 0;
}

/* session_switch_settings() without `late`. */
static int switch_settings(struct session *s, size_t b, struct strbuf *err)
{
	struct live_run *lr;

	if (!s->cfg->builds_nr || b == s->settings_build)
		return 0;
	s->settings_build = SIZE_MAX;
	if (settings_restore(s->settings, s->config_settings_nr, err))
		return -1;
	s->settings_build = b;
	if (b == SIZE_MAX)
		return 0;
	lr = &s->runs[b];
	if (session_apply_settings(s, &s->cfg->builds[b].settings, b,
				   lr->settings_stored ? b : b + 1, err))
		return -1;
	lr->settings_stored = true;
	return 0;
}

int session_switch_settings(struct session *s, size_t b, bool late,
			    struct strbuf *err)
{
	struct strbuf werr = STRBUF_INIT;

	if (!late)
		return switch_settings(s, b, err);
	if (switch_settings(s, b, &werr))
		session_notify(s, "%s", werr.buf);
	strbuf_release(&werr);
	return 0;
}

void session_restore_settings(struct session *s)
{
	struct strbuf err = STRBUF_INIT;

	s->settings_build = SIZE_MAX;
	if (settings_restore(s->settings, 0, &err))
		session_notify(s, "%s", err.buf);
	s->config_settings_nr = 0;
	strbuf_release(&err);
}

void session_recover_settings(struct session *s)
{
	struct strvec done = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;

	if (settings_recover(s->settings, &done, &err))
		session_notify(s, "%s", err.buf);
	for (size_t i = 0; i < done.nr; i++)
		session_notify(s, "%s", done.v[i]);
	strvec_clear(&done);
	strbuf_release(&err);
}
