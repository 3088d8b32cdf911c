// Compiler patches so the JavaScript nunjucks emits follows Jinja: `if`, `not`, `and`, `or` and inline-if
// use Python truthiness (an empty list is false; an undefined variable is an error, not "truthy");
// `==`/`+`/`*`/`~` go through runtime helpers; attribute lookups carry their dotted path for error
// messages; test names may be namespaced (`is ansible.builtin.match(...)`); `for x in dict` iterates keys.
// Slices (`x[1:]`) come from nunjucks' own jinja-compat parser patch, installed first.
import { nj, type NjNode, type NodeClass } from './nj.js';
import './lexer-patch.js';
import './parser-patch.js';
import './runtime-patch.js';
import './syntax-compile.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const C = nj.compiler.Compiler.prototype as Record<string, any>;
const nodes = nj.nodes;
const origCompileFor = C.compileFor as (node: NjNode, frame: unknown) => void;
const origCompileCompare = C.compileCompare as (node: NjNode, frame: unknown) => void;

/** Wraps the iterable of a one-name for loop (a FunCall subclass so nunjucks' type checks accept it). */
const HwIter = nodes.FunCall!.extend('HwIter') as NodeClass;
/** `for x in xs if cond`: name = the iterable, args = [cond, loop target]. */
const HwLoopFilter = nodes.FunCall!.extend('HwLoopFilter') as NodeClass;

/** Dotted source path of an expression, for "undefined variable 'a.b.c'" messages. */
export function nodePath(n: NjNode | undefined): string {
  if (!n) return '(expression)';
  if (n.typename === 'Symbol') return String(n.value);
  if (n.typename === 'LookupVal') {
    const base = nodePath(n.target);
    const v = n.val as NjNode;
    if (v.typename === 'Literal') return typeof v.value === 'number' ? `${base}[${v.value}]` : `${base}.${String(v.value)}`;
    if (v.typename === 'Symbol') return `${base}[${String(v.value)}]`;
    return `${base}[...]`;
  }
  return '(expression)';
}

function testName(n: NjNode): string {
  if (n.typename === 'FunCall') return testName(n.name as NjNode);
  if (n.typename === 'Literal') return String(n.value); // `is none`, `is true`
  return nodePath(n);
}

function call(this: any, fn: string, frame: unknown, ...parts: NjNode[]): void {
  this._emit(`runtime.${fn}(`);
  parts.forEach((p, i) => {
    if (i > 0) this._emit(', ');
    this._compileExpression(p, frame);
  });
  this._emit(')');
}

function lazyBin(fn: string) {
  return function (this: any, node: NjNode, frame: unknown): void {
    this._emit(`runtime.${fn}(`);
    this._compileExpression(node.left, frame);
    this._emit(', function() { return ');
    this._compileExpression(node.right, frame);
    this._emit('; })');
  };
}

Object.assign(C, {
  compileNot(this: any, node: NjNode, frame: unknown) {
    this._emit('!');
    call.call(this, 'hwTruthy', frame, node.target);
  },
  compileAnd: lazyBin('hwAnd'),
  compileOr: lazyBin('hwOr'),
  compileAdd(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwAdd', frame, node.left, node.right);
  },
  compileMul(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwMul', frame, node.left, node.right);
  },
  compileDiv(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwDiv', frame, node.left, node.right);
  },
  compileFloorDiv(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwFloorDiv', frame, node.left, node.right);
  },
  compileMod(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwMod', frame, node.left, node.right);
  },
  compileConcat(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwConcat', frame, node.left, node.right);
  },
  compileCompare(this: any, node: NjNode, frame: unknown) {
    const ops = node.ops as NjNode[];
    if (ops.length !== 1) return origCompileCompare.call(this, node, frame);
    this._emit(`runtime.hwCmp(${JSON.stringify(ops[0]!.type)}, `);
    this._compileExpression(node.expr, frame);
    this._emit(', ');
    this._compileExpression(ops[0]!.expr, frame);
    this._emit(')');
  },
  compileInlineIf(this: any, node: NjNode, frame: unknown) {
    this._emit('(');
    call.call(this, 'hwTruthy', frame, node.cond);
    this._emit(' ? ');
    this._compileExpression(node.body, frame);
    this._emit(' : ');
    if (node.else_) this._compileExpression(node.else_, frame);
    else this._emit('""');
    this._emit(')');
  },
  compileIf(this: any, node: NjNode, frame: unknown, async?: boolean) {
    this._emit('if(');
    call.call(this, 'hwTruthy', frame, node.cond);
    this._emitLine(') {');
    this._withScopedSyntax(() => {
      this.compile(node.body, frame);
      if (async) this._emit('cb()');
    });
    if (node.else_ || async) {
      this._emitLine('}\nelse {');
      this._withScopedSyntax(() => {
        if (node.else_) this.compile(node.else_, frame);
        if (async) this._emit('cb()');
      });
    }
    this._emitLine('}');
  },
  compileLookupVal(this: any, node: NjNode, frame: unknown) {
    const val = node.val as NjNode;
    if (val.typename === 'Slice') {
      this._emit('runtime.hwSlice((');
      this._compileExpression(node.target, frame);
      this._emit('),');
      this.compile(val, frame);
      this._emit(')');
      return;
    }
    this._emit('runtime.memberLookup((');
    this._compileExpression(node.target, frame);
    this._emit('),');
    this._compileExpression(val, frame);
    this._emit(`, ${JSON.stringify(nodePath(node.target))})`);
  },
  compileIs(this: any, node: NjNode, frame: unknown) {
    const right = node.right as NjNode;
    this._emit(`env.getTest(${JSON.stringify(testName(right))}).call(context, `);
    this._compileExpression(node.left, frame);
    if (right.typename === 'FunCall' && (right.args as NjNode).children.length) {
      this._compileAggregate(right.args, frame, ',', '');
    }
    this._emit(') === true');
  },
  compileGroup(this: any, node: NjNode, frame: unknown) {
    // A tuple `(1, 2)` is a list; nunjucks would emit JavaScript's comma operator.
    this._compileAggregate(node, frame, (node.children as NjNode[]).length > 1 ? '[' : '(', (node.children as NjNode[]).length > 1 ? ']' : ')');
  },
  compileFor(this: any, node: NjNode, frame: unknown) {
    const arr = node.arr as NjNode;
    // `for x in xs if cond` parses as an else-less inline if: it is Jinja's loop filter.
    if (arr.typename === 'InlineIf' && !arr.else_) {
      node.arr = new HwLoopFilter(arr.lineno, arr.colno, arr.body, new nodes.NodeList!(0, 0, [arr.cond, node.name]));
    }
    if ((node.name as NjNode).typename !== 'Array') {
      node.arr = new HwIter(node.arr.lineno, node.arr.colno, node.arr, new nodes.NodeList!(0, 0, []));
    }
    origCompileFor.call(this, node, frame);
  },
  compileHwLoopFilter(this: any, node: NjNode, frame: unknown) {
    const [cond, name] = (node.args as NjNode).children as NjNode[];
    const names = name!.typename === 'Array' ? (name!.children as NjNode[]) : [name!];
    this._emit('runtime.hwLoopFilter(');
    this._compileExpression(node.name, frame);
    this._emit(', function(hwItem) { frame = frame.push(); try { ');
    names.forEach((n, i) => this._emit(`frame.set(${JSON.stringify(n.value)}, ${names.length > 1 ? `hwItem[${i}]` : 'hwItem'}); `));
    this._emit('return runtime.hwTruthy(');
    this._compileExpression(cond, frame);
    this._emit('); } finally { frame = frame.pop(); } })');
  },
  compileHwIter(this: any, node: NjNode, frame: unknown) {
    call.call(this, 'hwIter', frame, node.name as NjNode);
  },
});
