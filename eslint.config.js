// Lint enforces what review would otherwise nag about: floating promises, exhaustive switches,
// type-only imports, hooks rules, and configuration read only in server/config.ts.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// Server layers (the "Server layers" block below).
const NO_HTTP = {
  regex: "(^|/)server/http(/|$)|^(\\.\\.?/)+http(/|$)",
  message: "Services import nothing from server/http: move the HTTP part to server/http or the route, a pure helper out of server/http.",
};
const NO_LISTENERS = {
  regex: "(^|/|#)server/(automation|webhooks|alerts)(/|$)|^(\\.\\.?/)+(automation|webhooks|alerts)(/|$)",
  message:
    "Domain services import nothing from server/automation, server/webhooks or server/alerts: they emit a domain event (server/events.ts) on their transaction, and the listeners registered in server/automation/listeners.ts react, so events flow down and a new listener touches no service.",
};

// App-side boundaries (docs/architecture.md): the studio engine and the image core are framework-free browser code,
// and no component reaches into the server or the database. Patterns catch relative paths and the subpath aliases.
const SERVER_OR_DB = {
  // relative paths and the #server/#db aliases; packages such as react-dom/server are not ours
  regex: "^(#|(\\.{1,2}/)+([^/]+/)*)(server|db)(/|$)",
  message: "Browser code: no server/ or db/ imports (a route module loads the data; share shapes through app/schemas).",
};
const FRAMEWORK = {
  group: ["react", "react/*", "react-dom", "react-dom/*"],
  message: "app/studio and app/image are framework-free: React reads them, they never import React.",
};
const appBoundaries = [
  { files: ["app/studio/**", "app/image/**"], rules: { "no-restricted-imports": ["error", { patterns: [FRAMEWORK, SERVER_OR_DB] }] } },
  { files: ["app/components/**"], rules: { "no-restricted-imports": ["error", { patterns: [SERVER_OR_DB] }] } },
];

// The typed client (app/lib/api) is the only way the browser calls the API: elsewhere in app/ no fetch and no import
// of its low-level `call` (use the resource modules: camerasApi, photosApi, ...). Written with no-restricted-globals and
// no-restricted-syntax, not no-restricted-imports, so it adds to the folder boundaries instead of replacing them.
// app/modules/** is exempt: the stand-alone people-counter page calls Moondream itself, not this API.
const LOW_LEVEL_CLIENT = "[source.value=/(^|\\/)lib\\/api\\/call$/]";
const TYPED_CLIENT_MESSAGE = "Call the API through a resource module in app/lib/api (typed from the catalogue in app/schemas/operations).";
const FRAME_AS_TEXT_MESSAGE =
  "Services take a frame as bytes (a Frame from server/images/frame.ts), never a data URL or base64: decode it at the HTTP edge (server/http/frame-input.ts); only the Moondream wire client encodes base64.";
/** A parameter (plain, defaulted, destructured or typed inline) named like a data URL or base64, and data URLs made or read. */
function frameAsTextSelectors() {
  const name = "/dataUrl|base64|imageData/i";
  return [
    `:function > Identifier.params[name=${name}]`,
    `:function > AssignmentPattern.params > Identifier.left[name=${name}]`,
    `:function > ObjectPattern.params > Property > Identifier.value[name=${name}]`,
    `:function > Identifier.params > TSTypeAnnotation > TSTypeLiteral > TSPropertySignature > Identifier.key[name=${name}]`,
    "Literal[value=/^data:[\\w.+-]+\\/[\\w.+-]+;base64,/]",
    "TemplateElement[value.raw=/^data:/]",
  ];
}

const typedClientOnly = {
  files: ["app/**/*.{ts,tsx}"],
  ignores: ["app/lib/api/**", "app/modules/**"],
  rules: {
    "no-restricted-globals": ["error", { name: "fetch", message: TYPED_CLIENT_MESSAGE }],
    "no-restricted-syntax": [
      "error",
      { selector: "CallExpression[callee.property.name='fetch'][callee.object.name=/^(window|globalThis|self)$/]", message: TYPED_CLIENT_MESSAGE },
      { selector: `ImportDeclaration[importKind!='type']${LOW_LEVEL_CLIENT}`, message: TYPED_CLIENT_MESSAGE },
      { selector: `ExportNamedDeclaration${LOW_LEVEL_CLIENT}, ExportAllDeclaration${LOW_LEVEL_CLIENT}`, message: TYPED_CLIENT_MESSAGE },
    ],
  },
};

// A relative import never climbs out of its top-level folder into app/, server/ or db/ (use #app/*, #server/*,
// #db/*), nor three folders or more inside one. A file N folders deep reaches the repository root with N "../",
// hence one pattern per depth. The typescript-eslint twin of no-restricted-imports, so it adds to the boundary rules
// instead of replacing their options.
const climbingImports = [1, 2, 3, 4, 5, 6].map((depth) => ({
  files: ["app", "server", "db", "tests", "bench", "bin"].map((top) => `${top}/${"*/".repeat(depth - 1)}*.{ts,tsx,js}`),
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: `^(\\.\\./){${depth}}(app|server|db)(/|$)|^(\\.\\./){3,}`,
            message: "Import across top-level folders (or from three folders up) through #app/, #server/ or #db/.",
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "data/**", "tmp/**", "test-results/**", "assembly/**", "public/**"] },
  js.configs.recommended,
  { files: ["bin/**/*.js", "*.js"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Measuring the DOM and syncing with media/device APIs legitimately set state from effects.
      "react-hooks/set-state-in-effect": "off",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["app/**", "server/**", "db/**"],
    ignores: ["server/config.ts", "**/*.test.ts"],
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read configuration through server/config.ts." }],
    },
  },
  ...appBoundaries,
  // ---- Server layers (issue 17, section 4) ----
  // Services and the rest of server/ take plain values and throw ProblemError (server/errors.ts); only the HTTP
  // layer (server/http, and server/app.ts and server/composition.ts which mount it) reads requests, cookies and bodies.
  {
    files: ["server/**/*.ts"],
    ignores: ["server/http/**", "server/app.ts", "server/composition.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_HTTP] }] },
  },
  // Domain events go down (docs/decisions/0010-domain-events.md): services emit them (server/events.ts), and webhooks
  // and alerts listen, registered in server/automation/listeners.ts. Same rule name as above, so both patterns here.
  {
    files: ["server/**/*.ts"],
    ignores: ["server/http/**", "server/app.ts", "server/composition.ts", "server/services.ts", "server/automation/**", "server/webhooks/**", "server/alerts/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_HTTP, NO_LISTENERS] }] },
  },
  // Frames are bytes inside the server (docs/decisions/0011-frames-as-bytes.md): the HTTP edge decodes a request's
  // data URL once and the Moondream client encodes base64 only as it writes the provider's body. A service that takes a
  // data URL or base64 makes every caller that has bytes (a camera, the monitor runner) dress them up as text first.
  {
    files: ["server/**/*.ts"],
    ignores: ["server/http/**", "server/app.ts", "server/vision/inline-image.ts", "server/vision/moondream-client.ts", "**/*.test.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...frameAsTextSelectors().map((selector) => ({ selector, message: FRAME_AS_TEXT_MESSAGE }))],
    },
  },
  // No import cycles in the application code: each module sits above the ones it imports.
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "db/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver()],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  // server/vision returns results only (issue 28): the services that keep a result call it, never the other way.
  {
    files: ["server/vision/**/*.ts"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver()] },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./server/vision",
              from: ["./server/counting", "./server/scoreboard", "./server/photos", "./server/stories", "./server/monitors"],
              message: "server/vision returns results only: the service that keeps a result calls vision and stores it itself.",
            },
          ],
        },
      ],
    },
  },
  // ---- end of server layers ----
  typedClientOnly,
  ...climbingImports,
);
