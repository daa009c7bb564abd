/* executor: dispatch to an executor's operations. */
#include "executor.h"

#include "machine.h"
#include "profile.h"
#include "run-data.h"
#include "util.h"

void executor_result_release(struct executor_result *res)
{
	if (!res)
		return;
	runner_result_release(&res->run);
	strbuf_release(&res->monitor_err);
	res->monitors = NULL;
}

int executor_run(struct executor *ex, const struct executor_request *req,
		 struct executor_result *res, struct strbuf *err)
{
	return ex->ops->run(ex, req, res, err);
}

void executor_machine_info(struct executor *ex, struct machine_info *mi)
{
	ex->ops->machine(ex, mi);
}

void executor_free(struct executor *ex)
{
	if (ex)
		ex->ops->free(ex);
}

bool executor_boots(const struct executor *ex)
{
	return ex->ops->boot != NULL;
}

int executor_boot(struct executor *ex, size_t kernel, long number,
		  struct executor_boot_info *info, struct strbuf *err)
{
	if (!ex->ops->boot)
		BUG("executor '%s' boots no kernels", ex->ops->name);
	return ex->ops->boot(ex, kernel, number, info, err);
}

int executor_profile(struct executor *ex, const struct profile_request *req,
		     struct profile_result *out, struct strbuf *err)
{
	if (!ex->ops->profile)
		return profile_run(req, out, err);
	return ex->ops->profile(ex, req, out, err);
}

void executor_boot_info_release(struct executor_boot_info *info)
{
	if (!info)
		return;
	free(info->kernel);
	free(info->image);
	free(info->image_sha256);
	free(info->image_release);
	free(info->append);
	free(info->qemu_version);
	free(info->qemu_cmdline);
	free(info->accel);
	free(info->pinning);
	free(info->watchdog);
	if (info->guest) {
		machine_info_release(info->guest);
		free(info->guest);
	}
	strbuf_release(&info->failed);
	{
		struct strbuf empty = info->failed; /* STRBUF_INIT again */

		memset(info, 0, sizeof(*info));
		info->failed = empty;
	}
}
