// The API report: for each entry of package.json's `exports`, what the built declarations (dist/*.d.ts)
// export, each name with whether it exists at run time and its declaration, then the declarations those name
// without exporting them. Written to api/<entry>.api.md so that a change of the public surface shows in
// review as a change of these files.
//   node scripts/api-report.mjs           writes api/ from dist/ (`npm run api:update`)
//   node scripts/api-report.mjs --check   exits 1, saying what differs, when api/ is not what dist/ gives
//   --root DIR                            another package's dist/ and api/ (the script's own test)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The statement a declaration is printed as: a variable's whole statement, anything else itself. */
const statementOf = (declaration) =>
  ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;

/**
 * Each union's members in the order of their text: the compiler writes an inferred union in the order it
 * created the member types, which any change elsewhere in the sources can shift.
 */
const sortUnions = (context) => (top) => {
  const visit = (node) => {
    const visited = ts.visitEachChild(node, visit, context);
    if (!ts.isUnionTypeNode(visited)) return visited;
    const text = (type) => printer.printNode(ts.EmitHint.Unspecified, type, top.getSourceFile());
    const sorted = [...visited.types].sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
    return context.factory.updateUnionTypeNode(visited, context.factory.createNodeArray(sorted));
  };
  return ts.visitNode(top, visit);
};

/** The text of a declaration as printed by TypeScript: no comments, one layout, unions sorted. */
const print = (declaration) => {
  const node = statementOf(declaration);
  const [normalized] = ts.transform(node, [sortUnions]).transformed;
  return printer.printNode(ts.EmitHint.Unspecified, normalized, node.getSourceFile());
};

/** The package at `root` as the report reads it: its entries with declarations, and its checker. */
function packageAt(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.import?.types)
    .map(([subpath, target]) => ({
      subpath,
      specifier: `${manifest.name}${subpath.slice(1)}`,
      report: `${subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1).replaceAll('/', '-')}`}.api.md`,
      types: join(root, target.import.types),
      runtime: join(root, target.import.node),
    }));
  const program = ts.createProgram(
    entries.map(({ types }) => types),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const dist = resolve(root, 'dist') + sep;
  /** A top-level declaration of the build (not of a dependency or of TypeScript's lib). */
  const isOwn = (declaration) =>
    resolve(declaration.getSourceFile().fileName).startsWith(dist) &&
    ts.isSourceFile(statementOf(declaration).parent);
  return { root, entries, program, checker: program.getTypeChecker(), isOwn };
}

/** What an entry's declarations export, by name, each with the symbol it stands for. */
function exportsOf(pkg, entry) {
  const file = pkg.program.getSourceFile(entry.types);
  if (!file) throw new Error(`${relative(pkg.root, entry.types)} is missing: run \`npm run build\` first.`);
  return pkg.checker
    .getExportsOfModule(pkg.checker.getSymbolAtLocation(file))
    .map((symbol) => ({
      name: symbol.name,
      target: symbol.flags & ts.SymbolFlags.Alias ? pkg.checker.getAliasedSymbol(symbol) : symbol,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The build's own top-level declarations that `declaration` names. */
function named(pkg, declaration) {
  const found = [];
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      let symbol = pkg.checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = pkg.checker.getAliasedSymbol(symbol);
      for (const target of symbol?.declarations ?? []) {
        if (target !== declaration && pkg.isOwn(target)) found.push(target);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(statementOf(declaration));
  return found;
}

/** Fails when the declarations and the build disagree on what exists at run time. */
function checkValues(entry, exports, runtime) {
  const declared = new Set(exports.map(({ name }) => name));
  const undeclared = [...runtime].filter((name) => !declared.has(name));
  if (undeclared.length > 0) {
    throw new Error(
      `${entry.specifier} exports ${undeclared.join(', ')} at run time but does not declare it.`,
    );
  }
  // A class re-exported with `export type` is still declared a value by the bundled .d.ts: code that uses it
  // as one compiles, then fails at run time.
  const phantom = exports.filter(
    ({ name, target }) => !runtime.has(name) && target.flags & ts.SymbolFlags.Value,
  );
  if (phantom.length > 0) {
    const names = phantom.map(({ name }) => name).join(', ');
    throw new Error(`${entry.specifier} declares ${names} as a value but does not export it at run time.`);
  }
}

/**
 * The report of one entry, as Markdown. `exported` holds every declaration some entry exports: what this one
 * names of those is in that entry's report.
 */
async function report(pkg, entry, exports, exported) {
  const runtime = new Set(Object.keys(await import(pathToFileURL(entry.runtime).href)));
  checkValues(entry, exports, runtime);
  const shown = new Set();
  const blocks = [];
  for (const { name, target } of exports) {
    const declarations = (target.declarations ?? []).filter(pkg.isOwn);
    for (const declaration of declarations) shown.add(declaration);
    const text = declarations.map(print).join('\n') || `// from ${pkg.checker.getFullyQualifiedName(target)}`;
    blocks.push(`// ${name} (${runtime.has(name) ? 'value' : 'type'})\n${text}`);
  }
  // What the exports name without exporting it (a base class): part of the surface all the same, and to
  // export if an integrator has to name it.
  const hidden = [];
  const queue = [...shown];
  while (queue.length > 0) {
    for (const next of named(pkg, queue.shift())) {
      if (shown.has(next) || exported.has(next)) continue;
      shown.add(next);
      hidden.push(print(next));
      queue.push(next);
    }
  }
  hidden.sort();
  return [
    `# ${entry.specifier}`,
    '',
    `What \`${entry.specifier}\` exports: ${exports.length} names, ${runtime.size} of them values at run time.`,
    `Generated from ${relative(pkg.root, entry.types)} by \`npm run api:update\`; do not edit.`,
    '',
    '```ts',
    blocks.join('\n\n'),
    '```',
    '',
    `## Named by the exports, not exported (${hidden.length})`,
    '',
    '```ts',
    hidden.join('\n\n'),
    '```',
    '',
  ].join('\n');
}

/** The report of each entry of the built package at `root`, by its file name under api/. */
async function apiReports(root) {
  const pkg = packageAt(root);
  const exports = pkg.entries.map((entry) => exportsOf(pkg, entry));
  const exported = new Set(exports.flat().flatMap(({ target }) => target.declarations ?? []));
  const reports = new Map();
  for (const [index, entry] of pkg.entries.entries()) {
    reports.set(entry.report, await report(pkg, entry, exports[index], exported));
  }
  return reports;
}

/** The first line where `expected` (what api/ holds) and `actual` part. */
function firstDifference(actual, expected) {
  const [a, b] = [actual.split('\n'), expected.split('\n')];
  const at = Math.max(
    0,
    a.findIndex((text, index) => text !== b[index]),
  );
  return `line ${at + 1}: api/ has ${JSON.stringify(b[at] ?? '(end)')}, dist/ gives ${JSON.stringify(a[at] ?? '(end)')}`;
}

/** How `folder` differs from `reports`, one line per file; empty when it holds exactly them. */
function differences(reports, folder) {
  const problems = [];
  for (const [file, text] of reports) {
    const path = join(folder, file);
    if (!existsSync(path)) problems.push(`api/${file} is missing`);
    else if (readFileSync(path, 'utf8') !== text) {
      problems.push(`api/${file} differs, ${firstDifference(text, readFileSync(path, 'utf8'))}`);
    }
  }
  const stale = existsSync(folder) ? readdirSync(folder).filter((file) => !reports.has(file)) : [];
  for (const file of stale) problems.push(`api/${file} is no entry's report`);
  return problems;
}

const { values: flags } = parseArgs({ options: { check: { type: 'boolean' }, root: { type: 'string' } } });
const root = resolve(flags.root ?? fileURLToPath(new URL('..', import.meta.url)));
const folder = join(root, 'api');
const reports = await apiReports(root).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
if (flags.check) {
  const problems = differences(reports, folder);
  if (problems.length > 0) {
    console.error(`The public API changed:\n  ${problems.join('\n  ')}`);
    console.error('If the change is meant, run `npm run api:update` and commit api/ with it.');
    process.exit(1);
  }
  console.log(`api/: ${reports.size} reports match dist/.`);
} else {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  for (const [file, text] of reports) writeFileSync(join(folder, file), text);
  console.log(`api/: wrote ${[...reports.keys()].join(', ')}.`);
}
