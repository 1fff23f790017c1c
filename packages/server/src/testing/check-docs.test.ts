// The documentation check of `npm run lint` (scripts/check-docs.ts): it finds a planted broken link
// and a planted citation of an outside document in a repository of its own, and nothing in this one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRepository, formatFinding } from '../../../../scripts/check-docs.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

// The citations are put together here, so that this file holds none of them itself.
const DESIGN_DOCUMENT = ['DESIGN', 'md'].join('.');
const OUTSIDE_FOLDER = ['..', 'shared', 'spec'].join('/');
const ISSUE = (number: number) => `${'issue'} ${number}`;
const ISSUE_WITH_HASH = (number: number) => `${'Issue'} #${number}`;

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

/** A repository of its own in a temporary folder: file name -> content. */
function plant(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'check-docs-'));
  folders.push(root);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

const GUIDE = '# Guide\n\n## Start the portal\n\n## Start the portal\n\n## Rights & roles (admin)\n';

describe('check-docs', () => {
  it('passes links to existing files, headings (GitHub slugs), folders and other sites', () => {
    const root = plant({
      'docs/guide.md': GUIDE,
      'docs/decisions/001-stack.md': '# 001\n',
      'README.md': [
        '[guide](docs/guide.md) [again](docs/guide.md#start-the-portal-1)',
        '[rights](docs/guide.md#rights--roles-admin) [records](docs/decisions/)',
        '[top](#readme) [web](https://example.com/x.md) [api](/api/docs) [mail](mailto:a@b.de)',
        '',
        '# Readme',
        '',
        '`[not a link](nowhere.md)`',
        '',
        '```',
        '[not a link either](nowhere.md)',
        '```',
        '',
        '| a | b |',
        '|---|---|',
        '| [cell](docs/decisions/001-stack.md#001) | x |',
        '',
        '[ref]: docs/guide.md#guide',
      ].join('\n'),
    });
    expect(checkRepository(root)).toEqual([]);
  });

  it('fails on a link to a missing file, a missing anchor or a place outside the repository', () => {
    const root = plant({
      'docs/guide.md': GUIDE,
      'README.md': [
        '# Readme',
        '',
        'See [the guide](docs/gide.md).',
        'And [a section](docs/guide.md#stop-the-portal).',
        'And [outside](../elsewhere/README.md).',
        '',
        '| a |',
        '|---|',
        '| [cell](#no-such-heading) |',
      ].join('\n'),
    });
    const found = checkRepository(root).map(formatFinding);
    expect(found).toEqual([
      expect.stringMatching(/^README\.md:3:5: link "docs\/gide\.md": no file docs\/gide\.md$/),
      expect.stringMatching(/^README\.md:4:5: link "docs\/guide\.md#stop-the-portal": no heading/),
      expect.stringMatching(
        /^README\.md:5:5: link "\.\.\/elsewhere\/README\.md" points outside the repository$/,
      ),
      expect.stringMatching(/^README\.md:9:3: link "#no-such-heading": no heading .* in README\.md$/),
    ]);
  });

  it('fails on citations of outside documents in code and docs, not in lockfiles or other files', () => {
    const root = plant({
      'packages/server/src/x.ts': `// As ${DESIGN_DOCUMENT} says\nexport const x = 1;\n`,
      'packages/web/src/y.tsx': `export const y = 2; // from ${ISSUE(12)}\n`,
      'docs/z.md': `# Z\n\nSee ${OUTSIDE_FOLDER}/devices.md and ${ISSUE_WITH_HASH(7)}.\n`,
      'package-lock.json': `{ "note": "${ISSUE(3)}" }\n`,
      'notes.txt': `${DESIGN_DOCUMENT}\n`,
      'node_modules/lib/index.js': `// ${ISSUE(4)}\n`,
    });
    const found = checkRepository(root).map(formatFinding);
    expect(found).toEqual([
      expect.stringMatching(/^docs\/z\.md:3:5: ".*" cites a folder outside the repository/),
      expect.stringMatching(/^docs\/z\.md:3:\d+: "Issue\s#7" cites an issue by its number/),
      expect.stringMatching(/^packages\/server\/src\/x\.ts:1:7: ".*" cites the design document/),
      expect.stringMatching(/^packages\/web\/src\/y\.tsx:1:\d+: ".*" cites an issue by its number/),
    ]);
  });

  it('finds nothing in this repository', () => {
    expect(checkRepository(repositoryRoot).map(formatFinding)).toEqual([]);
  });
});
