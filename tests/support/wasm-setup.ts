// Vitest global setup: the WASM image core must exist (and be current) before any test imports it.
import { ensureWasm } from "../../bin/build-wasm.js";

export default function setup() {
  ensureWasm();
}
