// Node options for the `modelgate serve` process. V8 sizes its heap once, when the process starts, so the serve
// command cannot apply them to itself: they go on node's command line (or in NODE_OPTIONS). `make run` and the
// benchmark (bench/lib/systems.ts) start the gateway with them; any other production start should pass them the
// same way (docs/operations.md, "Starting in production"). The gateway logs its heap limit in its "modelgate listening"
// line.
//
// Why a heap limit: with V8's default limit the old generation grows to several times the live heap between full
// collections, so RSS under load was far above what the gateway holds; a 1.5 GB limit keeps it close at the same CPU,
// and still leaves room for many concurrent prompts near the body limit (docs/performance.md, "Heap limit").
export const SERVE_NODE_OPTIONS: readonly string[] = ['--max-old-space-size=1536'];
