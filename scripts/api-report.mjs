// The API report: for each entry of package.json's `exports`, what the built declarations (dist/*.d.ts)
// export, each name with whether it exists at run time and its declaration, then the declarations those name
// without exporting them. Written to api/<entry>.api.md so that a change of the public surface shows in
// review as a change of these files.
//   node scripts/api-report.mjs           writes api/ from dist/ (`npm run api:update`)
//   node scripts/api-report.mjs --check   exits 1, saying what differs, when api/ is not what dist/ gives
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist') + sep;
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** Each subpath with declarations: its report's file, its `.d.ts` and its Node ESM build. */
function entries() {
  return Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.import?.types)
    .map(([subpath, target]) => ({
      subpath,
      name: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1).replaceAll('/', '-')}`,
      types: join(root, target.import.types),
      runtime: join(root, target.import.node),
    }));
}

/** A top-level declaration of the build (not of a dependency or of TypeScript's lib). */
const isOwnTopLevel = (declaration) => {
  const file = declaration.getSourceFile().fileName;
  if (!resolve(file).startsWith(dist)) return false;
  const statement = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts.isSourceFile(statement.parent);
};

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

/** The text of a declaration as printed by TypeScript (no comments, one layout), a variable's statement whole. */
const print = (declaration) => {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const [normalized] = ts.transform(node, [sortUnions]).transformed;
  return printer.printNode(ts.EmitHint.Unspecified, normalized, node.getSourceFile());
};

/** The build's own top-level declarations that `declaration` names, in the order it names them. */
function named(checker, declaration) {
  const found = [];
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const target of symbol?.declarations ?? []) {
        if (target !== declaration && isOwnTopLevel(target)) found.push(target);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration);
  return found;
}

/** What the entry's declarations export, by name, each with the symbol it stands for. */
function exportsOf(checker, program, entry) {
  const file = program.getSourceFile(entry.types);
  if (!file) throw new Error(`${relative(root, entry.types)} is missing: run \`npm run build\` first.`);
  return checker
    .getExportsOfModule(checker.getSymbolAtLocation(file))
    .map((symbol) => ({
      name: symbol.name,
      target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The report of one entry, as Markdown. `exported` holds every declaration some entry exports: what this one
 * names of those is in that entry's report.
 */
async function report(checker, entry, exports, exported) {
  const runtime = new Set(Object.keys(await import(pathToFileURL(entry.runtime).href)));
  const declared = new Set(exports.map(({ name }) => name));
  const missing = [...runtime].filter((name) => !declared.has(name));
  if (missing.length > 0) {
    throw new Error(
      `${entry.subpath} exports ${missing.join(', ')} at run time but not in its declarations.`,
    );
  }

  const shown = new Set();
  const blocks = [];
  const values = exports.filter(({ name }) => runtime.has(name)).length;
  for (const { name, target } of exports) {
    const declarations = (target.declarations ?? []).filter(isOwnTopLevel);
    for (const declaration of declarations) shown.add(declaration);
    const kind = runtime.has(name) ? 'value' : 'type';
    const text = declarations.map(print).join('\n') || `// from ${checker.getFullyQualifiedName(target)}`;
    blocks.push(`// ${name} (${kind})\n${text}`);
  }
  // What the exports name without exporting it (a base class, an option's type): part of the surface all the
  // same, and a candidate for an export if an integrator has to name it.
  const unexported = [];
  const queue = exports.flatMap(({ target }) => (target.declarations ?? []).filter(isOwnTopLevel));
  while (queue.length > 0) {
    for (const next of named(checker, queue.shift())) {
      if (shown.has(next) || exported.has(next)) continue;
      shown.add(next);
      unexported.push(next);
      queue.push(next);
    }
  }
  const hidden = unexported.map(print).sort();

  return [
    `# ${entry.name}`,
    '',
    `The declarations \`${manifest.name}${entry.subpath.slice(1)}\` exports: ${exports.length} names, ${values} of them`,
    `values at run time. Generated from ${relative(root, entry.types)} by \`npm run api:update\`; do not edit.`,
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

/** Every report, by file name under api/. */
async function apiReports() {
  const list = entries();
  const program = ts.createProgram(
    list.map(({ types }) => types),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const exports = list.map((entry) => exportsOf(checker, program, entry));
  const exported = new Set(exports.flat().flatMap(({ target }) => target.declarations ?? []));
  const reports = new Map();
  for (const [index, entry] of list.entries()) {
    reports.set(`${entry.name}.api.md`, await report(checker, entry, exports[index], exported));
  }
  return reports;
}

/** The first line where `actual` and `expected` part, for the message of a failed check. */
function firstDifference(actual, expected) {
  const [a, b] = [actual.split('\n'), expected.split('\n')];
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: api/ has ${JSON.stringify(b[at] ?? '(end)')}, dist/ gives ${JSON.stringify(a[at] ?? '(end)')}`;
}

const folder = join(root, 'api');
const reports = await apiReports();
if (process.argv.includes('--check')) {
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
