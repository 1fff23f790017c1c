// The runtime check before `npm start` and `npm test` (scripts/check-runtime.js): it lets the
// Node.js it runs on pass when that is new enough for package.json's `engines`, and stops with a
// message that says what to install when it is not. The check is run by this Node.js, against a
// copy of the project's files whose minimum is set above or below it.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const copy = mkdtempSync(path.join(tmpdir(), 'check-runtime-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function runWithMinimum(minimum: string) {
  const manifest = JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8'));
  writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ ...manifest, engines: { node: minimum } }));
  copyFileSync(path.join(repositoryRoot, '.node-version'), path.join(copy, '.node-version'));
  mkdirSync(path.join(copy, 'scripts'), { recursive: true });
  copyFileSync(
    path.join(repositoryRoot, 'scripts/check-runtime.js'),
    path.join(copy, 'scripts/check-runtime.js'),
  );
  return spawnSync(process.execPath, [path.join(copy, 'scripts/check-runtime.js')], { encoding: 'utf8' });
}

describe('the runtime check', () => {
  it('passes on the Node.js that npm scripts run on', () => {
    expect(() =>
      execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/check-runtime.js')]),
    ).not.toThrow();
  });

  it('passes at exactly the minimum', () => {
    const [major, minor] = process.versions.node.split('.');
    expect(runWithMinimum(`>=${major}.${minor}`).status).toBe(0);
  });

  it('stops a Node.js older than the minimum and says what to install', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const result = runWithMinimum(`>=${major + 1}.0`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `Tank Portal needs Node.js >=${major + 1}.0; this is Node.js ${process.version}`,
    );
    expect(result.stderr).toContain(
      `Node.js ${readFileSync(path.join(repositoryRoot, '.node-version'), 'utf8').trim()}`,
    );
    expect(result.stderr).toContain('docs/deployment.md, "The runtime"');
  });
});
