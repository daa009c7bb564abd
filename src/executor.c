/* executor: dispatch to an executor's operations. */
#include "executor.h"

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
