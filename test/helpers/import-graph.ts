// Every module of the project and what it imports, as the TypeScript 7 compiler parses them (its API runs the
// native compiler on tsconfig.json). The architecture check needs this because dependency-cruiser 17 parses
// TypeScript only through the JS compiler API of TypeScript 2–6, swc or babel: with TypeScript 7 alone it
// finds no .ts module at all (and reports no violation).
import path from 'node:path';
import { SyntaxKind, type ImportDeclaration, type ExportDeclaration, type Node } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

export interface ModuleImport {
  /** As written, e.g. `../registry/types.js`, `zod`, `node:fs`. */
  specifier: string;
  /** `import type`, `export type … from` or an `import('…')` type: erased at run time, still a dependency. */
  typeOnly: boolean;
  /** An `import('…')` call. */
  dynamic: boolean;
}

export interface SourceModule {
  /** Relative to the project root, with forward slashes, e.g. `src/app.ts`. */
  file: string;
  imports: ModuleImport[];
}

/** How a module specifier found in a file is used: `sourceFile.imports` holds the specifier nodes. */
function importOf(specifier: Node & { text: string }): ModuleImport {
  const user = specifier.parent;
  const typeOnly =
    (user.kind === SyntaxKind.ImportDeclaration && (user as ImportDeclaration).importClause?.phaseModifier === SyntaxKind.TypeKeyword) ||
    (user.kind === SyntaxKind.ExportDeclaration && (user as ExportDeclaration).isTypeOnly) ||
    // `typeof import('x')`: the specifier sits in a literal type inside the import type.
    user.kind === SyntaxKind.LiteralType;
  return { specifier: specifier.text, typeOnly, dynamic: user.kind === SyntaxKind.CallExpression };
}

/** The project's own source files (not node_modules, not the default library) and their imports. */
export function readProjectImports(root: string, tsconfig = 'tsconfig.json'): SourceModule[] {
  const configFile = path.join(root, tsconfig);
  const api = new API({ cwd: root });
  try {
    const project = api.updateSnapshot({ openProjects: [configFile] }).getProject(configFile);
    if (!project) throw new Error(`TypeScript did not open ${configFile}`);
    const { program } = project;
    return program
      .getSourceFileNames()
      .filter((f) => !path.relative(root, f).startsWith('..') && !f.split(path.sep).includes('node_modules'))
      .map((f) => ({
        file: path.relative(root, f).split(path.sep).join('/'),
        imports: (program.getSourceFile(f)?.imports ?? []).map((s) => importOf(s as Node & { text: string })),
      }));
  } finally {
    api.close();
  }
}
