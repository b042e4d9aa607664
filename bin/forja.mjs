#!/usr/bin/env node
// The `forja` bin: the CLI is TypeScript (cli/), run through tsx (a dependency), so `npm ci` is all it needs.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
