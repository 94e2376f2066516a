// fast-check arbitraries for hostile HTTP requests, derived from an operation's OpenAPI description:
// near-valid bodies with one field turned hostile, wrong types, missing and extra fields, huge and deep
// JSON, broken data URLs and .cube files, control characters, bad path ids, bad query strings and
// wrong content types.
import fc from "fast-check";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};

export interface FuzzRequest {
  /** What kind of hostility this is, for the report. */
  kind: string;
  method: string;
  /** The raw request target: path and query, possibly malformed on purpose. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface Seeds {
  /** Ids of the fuzzing user's real rows, so near-valid requests reach the services. */
  ids: string[];
  /** Big values built once (building megabytes per run would dominate the run): whole JSON bodies, and
   * JSON-escaped string contents that stand in for a field's value. */
  big: { json2mb: string; json17mb: string; dataUrl12mb: string; dataUrl16mb: string; cube9mb: string };
  tinyJpegDataUrl: string;
  validCube: string;
}

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0007\u0008\u001b[31m",
  "\ud800",
  "\udfff\ud800",
  "\u202e\u202d",
  "\ufeff",
  "\uffff",
  "𝕏🎥👩‍👩‍👧‍👦",
  "Ω≈ç√∫˜µ≤≥÷",
  "\r\n\r\nHTTP/1.1 200 OK",
  "' OR '1'='1' --",
  "'; drop table users; --",
  "$(reboot)",
  "${7*7}{{7*7}}",
  "../../../../etc/passwd",
  "%00%ZZ%",
  "<script>alert(1)</script>",
  "javascript:alert(1)",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "0x7fffffff",
  "null",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
];

const WRONG_TYPED: unknown[] = [null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, "", "x", [], [null], {}, { a: 1 }];

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 64 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((n) => "\u0000".repeat(n)) },
);

/** JSON nested `depth` levels deep, as text (built as text: JSON.stringify itself would overflow the stack). */
export function deepJsonText(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** A JSON value nested `depth` levels (moderate depths only: it is serialised with JSON.stringify). */
function deepValue(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Placeholder a hostile field value can take when it is too large to generate per run; replaced on serialisation. */
const BIG = (name: keyof Seeds["big"]) => `\u0001BIG:${name}\u0001`;

function dataUrlArb(seeds: Seeds): fc.Arbitrary<string> {
  const b64 = (bytes: number[]) => Buffer.from(bytes).toString("base64");
  return fc.oneof(
    fc.constant(seeds.tinyJpegDataUrl),
    fc.constantFrom(
      "data:image/jpeg;base64,",
      "data:image/jpeg;base64,!!!!",
      "data:image/jpeg;base64,====",
      "data:image/png;base64,iVBORw0KGgo=",
      `data:image/jpeg;base64,${b64([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])}`,
      `data:image/gif;base64,${b64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])}`,
      "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "data:image/jpeg,notbase64",
      "data:;base64,AAAA",
      "data:image/jpeg;base64,\u0000\u0000",
      seeds.tinyJpegDataUrl.slice(0, 60),
      seeds.tinyJpegDataUrl.replace(/.{8}$/, "AAAAAAAA"),
      BIG("dataUrl12mb"),
      BIG("dataUrl16mb"),
    ),
    fc.uint8Array({ maxLength: 512 }).map((bytes) => `data:image/jpeg;base64,${Buffer.from(bytes).toString("base64")}`),
    fc.uint8Array({ maxLength: 256 }).map((bytes) => `data:image/webp;base64,${Buffer.from([0x52, 0x49, 0x46, 0x46, ...bytes]).toString("base64")}`),
  );
}

/** Malformed .cube files: wrong sizes, too few or too many rows, non-numbers, huge declarations, binary junk. */
export function cubeArb(seeds: Seeds): fc.Arbitrary<string> {
  const row = fc.tuple(fc.double(), fc.double(), fc.double()).map((t) => t.join(" "));
  return fc.oneof(
    fc.constant(seeds.validCube),
    fc.constantFrom(
      "LUT_3D_SIZE 64\n0 0 0\n",
      "LUT_3D_SIZE 65\n",
      "LUT_3D_SIZE 0\n",
      "LUT_3D_SIZE -2\n",
      "LUT_3D_SIZE 2.5\n",
      "LUT_3D_SIZE 99999999999999999999\n",
      "LUT_1D_SIZE 65536\n",
      "LUT_1D_SIZE 65537\n",
      "LUT_1D_SIZE 2\nLUT_3D_SIZE 2\n0 0 0\n1 1 1\n",
      'TITLE "\u0000"\nLUT_3D_SIZE 2\n',
      "DOMAIN_MIN 1 1 1\nDOMAIN_MAX 0 0 0\nLUT_3D_SIZE 2\n" + "0 0 0\n".repeat(8),
      "DOMAIN_MIN NaN NaN NaN\nLUT_3D_SIZE 2\n" + "NaN Infinity -Infinity\n".repeat(8),
      "LUT_3D_SIZE 2\n" + "1e309 -1e309 0\n".repeat(8),
      "LUT_3D_SIZE 2\n" + "0 0 0\n".repeat(9),
      "LUT_3D_SIZE 2\n" + "0 0\n".repeat(8),
      "\ufeffLUT_3D_SIZE 2\r\n" + "0 0 0\r\n".repeat(8),
      "#".repeat(100_000),
      BIG("cube9mb"),
    ),
    fc.tuple(fc.integer({ min: -3, max: 70 }), fc.array(row, { maxLength: 40 })).map(([size, rows]) => `LUT_3D_SIZE ${size}\n${rows.join("\n")}\n`),
    fc.string({ unit: "binary", maxLength: 400 }),
  );
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/** Values the schema accepts (roughly: the point is to get past validation into the services). */
export function validArb(schema: JsonSchema, seeds: Seeds, name = "", depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArb(s, seeds, name, depth)));
  switch (typeOf(schema)) {
    case "string":
      if (name === "lutData") return fc.constant(seeds.validCube);
      if (schema.pattern?.startsWith("^data:")) return fc.constant(seeds.tinyJpegDataUrl);
      if (schema.format === "uuid") return fc.oneof(fc.constantFrom(...seeds.ids), fc.uuid());
      if (name === "ip") return fc.constantFrom("127.0.0.1", "10.0.0.5", "192.168.1.20", "example.invalid", "::1", "169.254.169.254");
      if (name === "webhookUrl") return fc.constantFrom("https://hooks.example.invalid/x", "http://127.0.0.1:1/x", "");
      if (name === "address") return fc.constantFrom("someone@example.com", "+15005550006");
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case "integer":
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 1000, 1e9) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 3 ? fc.constant([]) : fc.array(validArb(schema.items ?? {}, seeds, name, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case "object": {
      if (depth > 3 || !schema.properties) return fc.constant({});
      const props = Object.fromEntries(Object.entries(schema.properties).map(([key, s]) => [key, validArb(s, seeds, key, depth + 1)]));
      return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    case undefined:
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value in the wrong place: wrong types, nasty strings, deep nesting, or a hostile value of the field's kind. */
function hostileArb(schema: JsonSchema, seeds: Seeds, name: string): fc.Arbitrary<unknown> {
  const own =
    name === "lutData"
      ? cubeArb(seeds)
      : schema.pattern?.startsWith("^data:") || name === "imageData" || name === "thumbnail" || name === "imageBase64"
        ? dataUrlArb(seeds)
        : nastyString;
  return fc.oneof(
    { weight: 4, arbitrary: own },
    { weight: 2, arbitrary: fc.constantFrom(...WRONG_TYPED) },
    { weight: 2, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.integer({ min: 50, max: 900 }).map(deepValue) },
    { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 20 }) },
    { weight: 1, arbitrary: fc.double() },
  );
}

/** A near-valid body: valid, then one or more fields made hostile, dropped, or extra ones added. */
export function bodyValueArb(schema: JsonSchema, seeds: Seeds): fc.Arbitrary<{ kind: string; value: unknown }> {
  const props = Object.entries(schema.properties ?? {});
  const valid = validArb(schema, seeds);
  const mutated = fc
    .tuple(
      valid,
      fc.array(fc.tuple(fc.nat(Math.max(props.length - 1, 0)), fc.constantFrom("hostile", "drop", "extra") as fc.Arbitrary<string>, fc.integer()), { minLength: 1, maxLength: 3 }),
    )
    .chain(([base, edits]) =>
      fc
        .tuple(
          ...edits.map(([index, edit]) => {
            const [key, fieldSchema] = props[index] ?? ["field", {}];
            return (
              edit === "hostile" ? hostileArb(fieldSchema, seeds, key) : edit === "extra" ? fc.tuple(nastyString, fc.jsonValue({ maxDepth: 2 })) : fc.constant(undefined)
            ).map((v) => ({ key, edit, v }));
          }),
        )
        .map((changes) => {
          const body: Record<string, unknown> = base && typeof base === "object" && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
          for (const { key, edit, v } of changes) {
            if (edit === "drop") delete body[key];
            else if (edit === "extra") body[(v as [string, unknown])[0] || "extra"] = (v as [string, unknown])[1];
            else body[key] = v;
          }
          return { kind: `field:${changes.map((c) => c.edit).join("+")}`, value: body };
        }),
    );
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((value) => ({ kind: "valid", value })) },
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPED, "string body").map((value) => ({ kind: "not-an-object", value })) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ kind: "random-json", value })) },
  );
}

function serialise(value: unknown, seeds: Seeds): string {
  const text = JSON.stringify(value) ?? "null";
  return text.replace(/\\u0001BIG:(\w+)\\u0001/g, (_m, name: keyof Seeds["big"]) => seeds.big[name]);
}

/** The whole body as sent: JSON of a (hostile) value, or broken JSON, huge or deep text, under some content type. */
export function bodyArb(schema: JsonSchema | undefined, seeds: Seeds): fc.Arbitrary<{ kind: string; body?: string | Buffer; contentType?: string }> {
  const json = "application/json";
  const value = schema ? bodyValueArb(schema, seeds) : fc.jsonValue({ maxDepth: 3 }).map((v) => ({ kind: "random-json", value: v as unknown }));
  return fc.oneof(
    { weight: 10, arbitrary: value.map(({ kind, value: v }) => ({ kind, body: serialise(v, seeds), contentType: json })) },
    {
      weight: 1,
      arbitrary: value.chain(({ value: v }) =>
        fc
          .constantFrom(
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/xml",
            "application/json; charset=utf-16",
            "application/vnd.api+json",
            "",
            "*/*",
            "application/json\u0000",
          )
          .map((contentType) => ({ kind: "content-type", body: serialise(v, seeds), contentType })),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc
          .constantFrom(
            "{",
            '{"a":',
            "[1,2",
            "nul",
            "\u0000",
            '{"a":1}}',
            "{'a':1}",
            '{"a":01}',
            '{"\\ud800":"\\udfff"}',
            '{"__proto__":{"admin":true}}',
            '{"constructor":{"prototype":{"role":"admin"}}}',
          )
          .map((body) => ({ kind: "bad-json", body, contentType: json })),
        fc.string({ unit: "binary", maxLength: 200 }).map((body) => ({ kind: "bad-json", body, contentType: json })),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ kind: "binary", body: Buffer.from(bytes), contentType: json })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1_000, max: 300_000 }), fc.constantFrom("array", "object") as fc.Arbitrary<"array" | "object">)
        .map(([depth, kind]) => ({ kind: "deep-json", body: deepJsonText(depth, kind), contentType: json })),
    },
    { weight: 1, arbitrary: fc.constantFrom("json2mb", "json17mb").map((name) => ({ kind: `huge-body:${name}`, body: seeds.big[name as "json2mb"], contentType: json })) },
    { weight: 1, arbitrary: fc.constant({ kind: "empty-body", body: "", contentType: json }) },
  );
}

/** Percent-encodes every byte of the UTF-8 form (encodeURIComponent throws on lone surrogates). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}

/** Path parameter values: the user's real ids, unknown ones, and strings that are no id at all. */
export function pathParamArb(seeds: Seeds, name: string): fc.Arbitrary<string> {
  const own = name === "channel" ? fc.constantFrom("email", "sms") : fc.constantFrom(...seeds.ids);
  return fc.oneof(
    { weight: 3, arbitrary: own },
    { weight: 1, arbitrary: fc.uuid() },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "",
        "0",
        "-1",
        "%ZZ",
        "%",
        "%00",
        "%C0%AF",
        "%ED%A0%80",
        "..",
        "..%2F..%2Fetc%2Fpasswd",
        "%2e%2e",
        "null",
        "undefined",
        "00000000-0000-0000-0000-000000000000",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        "1%20OR%201%3D1",
        "%F0%9F%8E%A5",
        "x".repeat(4000),
        "email",
        "sms",
        "EMAIL",
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map(percentEncode) },
  );
}

/** A query string: the documented parameters with hostile values, repeated, extra, or badly encoded. */
export function queryArb(names: string[], seeds: Seeds): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(...seeds.ids),
    fc.constantFrom("1", "0", "-1", "2.5", "1e309", "NaN", "", "999999999999999999999", "%ZZ", "%00", "a%26b%3Dc"),
    nastyString.filter((s) => s.length < 2_000).map(percentEncode),
  );
  const pair = fc.tuple(fc.constantFrom(...names, "extra", "__proto__", "%ZZ"), value).map(([k, v]) => `${k}=${v}`);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant("") },
    { weight: 4, arbitrary: fc.array(pair, { minLength: 1, maxLength: 5 }).map((pairs) => `?${pairs.join("&")}`) },
    { weight: 1, arbitrary: fc.constantFrom("?", "?&&&", "?=", "?==&=", "?%", "?a=%E0%A4%A", `?${"a=1&".repeat(1500)}`) },
  );
}

/** A page's form post (sign-in, sign-up, sign-out): hostile field values, encoded as a browser would, or not. */
export function formBodyArb(): fc.Arbitrary<{ kind: string; body?: string; contentType?: string }> {
  const field = fc.oneof(fc.constantFrom("founding", "fuzz-password", "/studio", "//evil.example", "/\t/evil.example", "/\n/x", "https://evil.example", "/日本"), nastyString);
  const fields = fc.record({ username: field, password: field, confirmPassword: field, redirectTo: field, intent: field }, { requiredKeys: [] });
  const urlencoded = (values: Record<string, string>) => new URLSearchParams(values).toString();
  const multipart = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([k, v]) => `--x\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join("") + "--x--\r\n";
  return fc.oneof(
    { weight: 4, arbitrary: fields.map((values) => ({ kind: "form", body: urlencoded(values), contentType: "application/x-www-form-urlencoded" })) },
    { weight: 2, arbitrary: fields.map((values) => ({ kind: "multipart", body: multipart(values), contentType: "multipart/form-data; boundary=x" })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("%", "a=%ZZ&b=%", "=&=&", "username", "--x\r\nbroken")
        .map((body) => ({ kind: "bad-form", body, contentType: "application/x-www-form-urlencoded" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("--x\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--x--", "not multipart at all")
        .map((body) => ({ kind: "bad-multipart", body, contentType: "multipart/form-data; boundary=x" })),
    },
    { weight: 1, arbitrary: fields.map((values) => ({ kind: "json-to-form", body: JSON.stringify(values), contentType: "application/json" })) },
  );
}

/**
 * Bodies for an upload operation (multipart/form-data, `fields` from its schema): its fields with hostile or plausible
 * values and a file of random bytes, a JSON body instead, and broken multipart (no closing boundary, no name).
 */
export function uploadBodyArb(fields: readonly string[]): fc.Arbitrary<{ kind: string; body?: Buffer; contentType?: string }> {
  const value = fc.oneof(fc.constantFrom("yolo", "detr", "unit", "imagenet", "true", "person\nforklift", '["person"]', "[1]", ""), nastyString);
  const part = (name: string, content: string | Uint8Array, filename?: string) =>
    Buffer.concat([
      Buffer.from(`--x\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? "" : `; filename="${filename}"`}\r\n\r\n`),
      Buffer.from(content),
      Buffer.from("\r\n"),
    ]);
  const form = fc.record({
    values: fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: fields.length }),
    file: fc.option(fc.uint8Array({ maxLength: 4096 })),
  });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: form.map(({ values, file }) => ({
        kind: "upload",
        body: Buffer.concat([...Object.entries(values).map(([name, text]) => part(name, text)), ...(file ? [part("file", file, "model.onnx")] : []), Buffer.from("--x--\r\n")]),
        contentType: "multipart/form-data; boundary=x",
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "--x\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--x--",
          '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nunclosed',
          "not multipart at all",
          "",
        )
        .map((body) => ({ kind: "bad-upload", body: Buffer.from(body), contentType: "multipart/form-data; boundary=x" })),
    },
    { weight: 1, arbitrary: form.map(({ values }) => ({ kind: "json-to-upload", body: Buffer.from(JSON.stringify(values)), contentType: "application/json" })) },
  );
}
