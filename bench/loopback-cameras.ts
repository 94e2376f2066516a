// Imported first by bench/run.ts: the benchmark's own process pulls the fake IP cameras on loopback (the pipeline
// group's idle camera runs the camera streams in this process), and its configuration is read once, on first use,
// possibly while the groups' modules load — so the address policy must be set before any of them.
process.env.PTZ_ALLOWED_NETWORKS ??= "127.0.0.0/8";
process.env.PTZ_ALLOWED_PORTS ??= "1024-65535";
