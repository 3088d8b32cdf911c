// House style (docs/architecture.md): every file under src/ stays under 300 lines and no function,
// method or arrow function has a body over 80 lines (measured with the TypeScript compiler API,
// braces included; an inner function counts inside its outer one too).
import test from 'ava';
import { functionSizes, lineCount, listSources, type FunctionSize } from './source-tree.js';

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

const files = listSources('src');

function oversizeFiles(list: string[]): string[] {
  return list.filter((f) => lineCount(f) >= MAX_FILE_LINES).map((f) => `${f} (${lineCount(f)} lines)`);
}

function oversizeFunctions(sizes: FunctionSize[]): FunctionSize[] {
  return sizes.filter((s) => s.lines > MAX_FUNCTION_LINES);
}

test(`every file under src/ has fewer than ${MAX_FILE_LINES} lines`, (t) => {
  t.deepEqual(oversizeFiles(files), []);
});

test(`no function body under src/ is over ${MAX_FUNCTION_LINES} lines`, (t) => {
  const over = oversizeFunctions(files.flatMap(functionSizes));
  t.deepEqual(over.map((s) => `${s.file}:${s.line} ${s.name} (${s.lines} lines)`), []);
});

test('the measure: a function is its body\'s lines, braces included, methods and arrows too', (t) => {
  const sizes = functionSizes('test/architecture/size-fixture.ts');
  t.deepEqual(sizes.map((s) => [s.name, s.lines]), [['short', 3], ['constructor', 1], ['method', 4], ['arrow', 2], ['<arrow>', 1]]);
  // The limits themselves: 81 lines is over, 80 is not; a file of 300 lines is over.
  const at = (lines: number) => ({ file: 'src/x.ts', name: 'f', line: 1, lines });
  t.deepEqual(oversizeFunctions([at(80), at(81)]).map((s) => s.lines), [81]);
  t.deepEqual(oversizeFiles(['test/architecture/size-fixture.ts']), []);
});
