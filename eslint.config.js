// Lint enforces what review would otherwise nag about: floating promises, exhaustive switches,
// type-only imports, hooks rules, and configuration read only in server/config.ts.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// The typed client (app/lib/api) is the only way the browser calls the API: elsewhere in app/ no fetch and no import
// of its low-level `call` (use the resource modules: camerasApi, photosApi, ...). Written with no-restricted-globals and
// no-restricted-syntax, not no-restricted-imports, so it adds to the folder boundaries instead of replacing them.
// app/modules/** is exempt: the stand-alone people-counter page calls Moondream itself, not this API.
const LOW_LEVEL_CLIENT = "[source.value=/(^|\\/)lib\\/api\\/call$/]";
const TYPED_CLIENT_MESSAGE = "Call the API through a resource module in app/lib/api (typed from the catalogue in app/schemas/operations).";
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
  typedClientOnly,
);
