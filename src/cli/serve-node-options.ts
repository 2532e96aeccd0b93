// Node options for the `modelgate serve` process. V8 sizes its heap once, when the process starts, so the serve
// command cannot apply them to itself: they go on node's command line (or in NODE_OPTIONS). `make run` and the
// benchmark (bench/lib/systems.ts) start the gateway with them; any other production start should pass them the
// same way (docs/operations.md, "Starting in production"). The gateway logs its heap limit in its "modelgate listening" line.
//
// Why a heap limit: V8 runs a full collection once the old generation has grown to a multiple of what survived the
// previous one. That multiple goes up to 4 when the heap limit is 2 GB or more (Node's default here is ~4 GB) and
// shrinks with the limit (just under 2 at 1.9 GB, 1.8 at 1.5 GB, 1.4 at 512 MB). Under load the gateway's live
// heap is ~40 MB, yet its old generation grew to ~150 MB between full collections: RSS peaked at 250-300 MB at
// c=64 with 64 KB prompts. With 1.5 GB the peak was ~150-190 MB (json, streams and 64 KB prompts at c=16-64), CPU per
// request within run-to-run noise of the default: a full collection of a 40 MB heap takes ~10 ms. (512 MB and 1 GB
// gave the same RSS at 5-30% more CPU on 64 KB prompts: more frequent full collections.)
//
// Why not lower: the limit is also where V8 gives up and the process dies. 1.5 GB is ~40x the live heap with 64
// concurrent 64 KB prompts plus streams (RSS stayed at 155-161 MB over 60 s of that), and by estimate leaves room
// for 64 concurrent prompts near the 10 MB body limit (a parsed prompt is held from the body read until it is sent
// upstream, ~640 MB for 64). The young generation keeps V8's default (16 MB semi-spaces): 8 MB saved no RSS at the
// peak, 32 and 64 MB added RSS and saved no CPU.
export const SERVE_NODE_OPTIONS: readonly string[] = ['--max-old-space-size=1536'];
