// `npm run lint` runs this after ESLint and Prettier: the repository must explain itself from a clone.
// It fails (exit 1, one line per finding as file:line:column) on
// - a relative link in a Markdown file that points to a missing file, to a place outside the
//   repository, or to a heading anchor the target file does not have (GitHub's slugs, github-slugger);
// - a citation of a document the repository does not hold, in code and docs: the old design
//   document's name, the sibling folder `shared` above the checkout, an issue by its number, a
//   section sign after "spec" or "contracts". What those documents said is in docs/product/ and
//   docs/decisions/ now; link there instead.
// Markdown is read by mdast-util-from-markdown with GitHub's extensions (mdast-util-gfm), so links
// in code blocks and inline code are no links, and tables are read as GitHub shows them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

export interface Finding {
  /** The file, relative to the checked root, with forward slashes. */
  file: string;
  line: number;
  column: number;
  message: string;
}

/** Folders never checked: installed, built, generated or local data. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  'test-results',
  'playwright-report',
  'coverage',
  'data',
  '.git',
]);

/** Files whose words are checked; lockfiles name packages, not documents. */
const CHECKED_WORDS_IN = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md)$/;
const LOCKFILES = new Set(['package-lock.json', 'npm-shrinkwrap.json']);

/**
 * Citations of documents outside the repository. Written so that this file does not match them
 * itself: each pattern's source differs from the text it finds.
 */
const FORBIDDEN: { pattern: RegExp; what: string }[] = [
  { pattern: /\bDESIGN\.md\b/g, what: 'the design document outside the repository' },
  { pattern: /\.\.\/shared\b/g, what: 'a folder outside the repository' },
  { pattern: /\bissue\s*#\d+|\bissue\s+\d+/gi, what: 'an issue by its number' },
  { pattern: /\b(?:spec|contracts)\s*§/gi, what: 'a section of a specification outside the repository' },
];

/** Every file below `root` outside the skipped folders, as paths relative to it. */
export function repositoryFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(relative);
      } else if (entry.isFile()) files.push(relative);
    }
  };
  walk('');
  return files.sort();
}

/** Line and column (1-based) of a character offset. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The citations of outside documents in one file's text. */
export function forbiddenWords(file: string, text: string): Finding[] {
  const findings: Finding[] = [];
  for (const { pattern, what } of FORBIDDEN) {
    for (const match of text.matchAll(pattern)) {
      findings.push({
        file,
        ...positionOf(text, match.index),
        message: `"${match[0]}" cites ${what}: link the page of docs/product/ or docs/decisions/ that holds it, or remove it`,
      });
    }
  }
  return findings;
}

interface MdNode {
  type: string;
  url?: string;
  value?: string;
  children?: MdNode[];
  position?: { start: { line: number; column: number } };
}

function parseMarkdown(text: string): MdNode {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as MdNode;
}

function visit(node: MdNode, each: (node: MdNode) => void) {
  each(node);
  for (const child of node.children ?? []) visit(child, each);
}

/** The anchors of a Markdown text: its headings' GitHub slugs and the ids of HTML anchors in it. */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  visit(parseMarkdown(text), (node) => {
    if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
    if (node.type === 'html' && node.value)
      for (const [, id] of node.value.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi))
        anchors.add(id!);
  });
  return anchors;
}

/** A link to another site, a mail address or a path of the running portal (`/api/docs`). */
const notRelative = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/');

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The broken relative links of one Markdown file (`file` relative to `root`). */
export function brokenLinks(
  root: string,
  file: string,
  text: string,
  anchorsOfFile: (absolute: string) => Set<string>,
): Finding[] {
  const findings: Finding[] = [];
  const absoluteRoot = path.resolve(root);
  const self = path.join(absoluteRoot, file);
  visit(parseMarkdown(text), (node) => {
    if (!['link', 'image', 'definition'].includes(node.type) || !node.url || notRelative(node.url)) return;
    const at = node.position?.start ?? { line: 1, column: 1 };
    const report = (message: string) => findings.push({ file, line: at.line, column: at.column, message });
    const hash = node.url.indexOf('#');
    const target = decoded((hash === -1 ? node.url : node.url.slice(0, hash)).replace(/\?.*$/, ''));
    const anchor = hash === -1 ? '' : decoded(node.url.slice(hash + 1));
    const resolved = target ? path.resolve(path.dirname(self), target) : self;
    if (resolved !== absoluteRoot && !resolved.startsWith(absoluteRoot + path.sep)) {
      report(`link "${node.url}" points outside the repository`);
      return;
    }
    if (!existsSync(resolved)) {
      report(
        `link "${node.url}": no file ${path.relative(absoluteRoot, resolved).split(path.sep).join('/')}`,
      );
      return;
    }
    if (!anchor || !resolved.endsWith('.md') || !statSync(resolved).isFile()) return;
    if (!anchorsOfFile(resolved).has(anchor))
      report(`link "${node.url}": no heading with the anchor #${anchor} in ${path.basename(resolved)}`);
  });
  return findings;
}

/** Every finding in the repository at `root`. */
export function checkRepository(root: string): Finding[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOfFile = (absolute: string) => {
    let found = anchors.get(absolute);
    if (!found) anchors.set(absolute, (found = anchorsOf(readFileSync(absolute, 'utf8'))));
    return found;
  };
  const findings: Finding[] = [];
  for (const file of repositoryFiles(root)) {
    const name = path.basename(file);
    if (!CHECKED_WORDS_IN.test(name) || LOCKFILES.has(name)) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    findings.push(...forbiddenWords(file, text));
    if (name.endsWith('.md')) findings.push(...brokenLinks(root, file, text, anchorsOfFile));
  }
  return findings;
}

export const formatFinding = ({ file, line, column, message }: Finding) =>
  `${file}:${line}:${column}: ${message}`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(import.meta.dirname, '..');
  const findings = checkRepository(root);
  for (const finding of findings) console.error(formatFinding(finding));
  if (findings.length > 0) {
    console.error(
      `\ncheck-docs: ${findings.length} problem(s): broken relative Markdown links or citations of documents outside the repository`,
    );
    process.exit(1);
  }
  console.log('check-docs: Markdown links resolve, no citations of documents outside the repository');
}
