// The webhook outbox's wake-up call, on its own without imports so the benchmark can write exactly what
// publishing writes.

/**
 * The durable "there is work" signal for the webhook outbox. Publishers call it in the statement or
 * transaction that writes the delivery row, so an accepted event always has a job that will look for it.
 * The job key folds a burst into one waiting job (its run time kept) instead of one job per event; a job
 * already running keeps running and a fresh one waits behind it, so nothing written after a claim is missed.
 */
export const WAKE_DELIVERIES_CALL = "graphile_worker.add_job('deliver_webhooks', '{}'::json, job_key => 'deliver_webhooks', job_key_mode => 'preserve_run_at', max_attempts => 5)";
