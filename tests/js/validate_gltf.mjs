// node validate_gltf.mjs FILE...: runs the Khronos glTF Validator on each glTF/GLB file and prints
// one JSON array of its reports (the validator's own report objects, with "uri" naming the file;
// bytes it cannot even recognise as glTF get a one-error report with code NOT_GLTF) on standard
// output. Exit 0 when no report has an error, 1 when any has, 2 on a bad command line
// or a file that cannot be read. External buffers resolve beside each file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate_gltf.mjs FILE...');
  process.exit(2);
}

const reports = [];
let errors = 0;
for (const file of files) {
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
  let report;
  try {
    report = await validator.validateBytes(new Uint8Array(bytes), {
      uri: file,
      maxIssues: 100,
      externalResourceFunction: (uri) =>
        readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
  } catch (e) {
    // The validator throws, rather than reports, when the bytes are not glTF at all (empty, text,
    // wrong magic): give that file a report of one error in the same shape.
    const message = String(e && e.message ? e.message : e);
    report = {
      uri: file,
      issues: { numErrors: 1, numWarnings: 0, numInfos: 0, numHints: 0, truncated: false,
                messages: [{ code: 'NOT_GLTF', message, severity: 0 }] },
    };
  }
  errors += report.issues.numErrors;
  reports.push(report);
}
// exitCode, not exit(): a pipe takes stdout asynchronously and exit() would cut the report short.
process.stdout.write(JSON.stringify(reports, null, 2) + '\n');
process.exitCode = errors > 0 ? 1 : 0;
