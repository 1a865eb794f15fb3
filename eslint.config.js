import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The layering of DESIGN.md §2 as rules: each zone says which folders the files of `target` may not import.
// Read top to bottom as "X never imports Y". A break fails `npm test` (step lint).
const APP = ['./runtime/shell', './runtime/pages', './runtime/main.tsx'];
const FEATURES = ['./runtime/apimgr', './runtime/editors', './runtime/datav'];
const BROWSER = ['./runtime', './widgets', './designer'];
const TOOLS = ['./stories', './e2e', './bench'];
// the server's modules, one folder each (server-stub/modules/<name>/)
const MODULES = readdirSync(new URL('./server-stub/modules', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
// the imports between modules still allowed, each with its reason (paths relative to server-stub/modules)
const MODULE_EXCEPTIONS = {
  // the demo seed also writes demo system variables (their table's type comes with the variable module)
  datasource: ['./variable/index.ts'],
};
const zones = [
  // the server and the shared module never take browser code
  { target: './server-stub', from: [...BROWSER, ...TOOLS], message: 'server-stub/ imports only schemas/ and common/, never browser code.' },
  { target: './common', from: [...BROWSER, './server-stub', ...TOOLS], message: 'common/ is framework-free and stands alone: browser and server import it, it imports neither.' },
  { target: './schemas', from: [...BROWSER, './server-stub', './common', ...TOOLS], message: 'schemas/ holds declarations and generated types only.' },
  // inside the server: the store and the platform core never reach into modules (their tests may: they drive the whole app)
  { inside: true, target: './server-stub/store', from: ['./server-stub/modules', './server-stub/connectors'], message: 'store/ never imports modules: modules bring their tables and seeds to the store.' },
  { inside: true, target: './server-stub/core', from: ['./server-stub/modules'], message: 'core/ never imports modules.' },
  { inside: true, target: './server-stub/connectors', from: ['./server-stub/modules'], message: 'connectors/ never imports modules.' },
  // a module never imports another module: what they share is a platform service (core/platform.ts, app.<name>)
  ...MODULES.map((m) => ({
    inside: true,
    target: `./server-stub/modules/${m}`,
    from: './server-stub/modules',
    except: [`./${m}`, ...(MODULE_EXCEPTIONS[m] ?? [])],
    message: `server-stub/modules/${m} imports no other module: use a platform service (core/platform.ts, listed in \`needs\`) or core/.`,
  })),
  // the browser, bottom up: core ← ui ← crud, widgets ← designer ← features ← app
  { target: './runtime/core', from: ['./runtime/ui', './runtime/crud', ...FEATURES, ...APP, './widgets', './designer'], message: 'runtime/core is the bottom of the browser: request, session, permissions, dictionaries.' },
  { target: './runtime/ui', from: ['./runtime/crud', ...FEATURES, ...APP, './widgets', './designer'], message: 'runtime/ui (the UI kit) imports only runtime/core.' },
  { target: './runtime/crud', from: [...FEATURES, ...APP, './widgets', './designer'], message: 'runtime/crud (the generic renderer) imports only runtime/core and runtime/ui.' },
  { target: './widgets', from: ['./runtime/crud', ...FEATURES, ...APP, './designer'], message: 'widgets/ imports only runtime/core and runtime/ui.' },
  { target: './designer', from: ['./runtime/crud', ...FEATURES, ...APP], message: 'designer/ imports widgets/, runtime/core and runtime/ui, never the app or the CRUD renderer.' },
  { target: FEATURES, from: APP, message: 'Feature folders never import the app (shell, pages, main.tsx); what they share with it is in runtime/ui or runtime/core.' },
  // the runtime takes the designer whole (runtime/datav/DesignerHost, loaded with its route); what a preview shares
  // with it is below both: the stage in widgets/stage, the page's shape in common/canvas.ts
  { target: './runtime', from: './designer', except: ['./Designer.tsx'], message: 'The runtime imports the designer only as designer/Designer.tsx; the stage is widgets/stage, the page types common/canvas.ts.' },
  // the CRUD renderer is used through its public entry only (CrudPage, CrudPageWith, the declaration types); the UI
  // pieces others need (Monaco, CodeEditor, tags, formats, trees) live in runtime/ui
  { target: [...FEATURES, ...APP], from: './runtime/crud', except: ['./index.ts'], message: 'Outside runtime/crud, import the renderer from runtime/crud (its index.ts) only; general UI pieces are in runtime/ui.' },
  // nothing ships tools (a widget kind's story sits in its folder, widgets/<kind>/<kind>.stories.tsx, and is a tool too)
  { tools: true, target: ['./runtime', './widgets', './designer', './server-stub', './common', './schemas'], from: TOOLS, message: 'Nothing in the product imports stories/, e2e/ or bench/.' },
  { target: ['./runtime', './widgets', './designer', './server-stub', './common', './schemas'], from: './widgets/*/*.stories.@(ts|tsx)', message: 'Nothing in the product imports a story.' },
];
const ruleOf = (list) => ['error', { zones: list.map((z) => Object.fromEntries(Object.entries(z).filter(([k]) => k !== 'inside' && k !== 'tools'))) }];

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'storybook-static', 'node_modules', 'data', 'schemas/generated', '.test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: globals.node } },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ruleOf(zones),
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  { files: ['server-stub/**/*.test.ts'], rules: { 'import-x/no-restricted-paths': ruleOf(zones.filter((z) => !z.inside)) } },
  // the store is typed (DESIGN §8): an untyped Kysely lives in the declared-table service only
  {
    files: ['server-stub/**/*.ts'],
    ignores: ['server-stub/core/tables.ts', 'server-stub/**/*.test.ts', 'server-stub/**/testing/**'],
    rules: { 'no-restricted-syntax': ['error', { selector: "TSTypeReference[typeName.name='Kysely'] > TSTypeParameterInstantiation > TSAnyKeyword", message: 'Kysely<any> only in core/tables.ts: use Kysely<Database> (declare the table with declareTable).' }] },
  },
  // a widget kind's story, beside its component, is a tool: it may take the shared story helpers in stories/
  { files: ['widgets/*/*.stories.@(ts|tsx)'], rules: { 'import-x/no-restricted-paths': ruleOf(zones.filter((z) => !z.tools)) } },
  {
    // the shared module runs in the browser and on the server: no framework, no Node built-ins
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-*', 'antd', 'antd/*', '@formily/*', 'fastify', 'fastify-*', '@fastify/*', 'kysely', 'node:*'], message: 'common/ is framework-free.' }] }],
    },
  },
);
