#!/usr/bin/env node
// ort-run.js MODEL.onnx OUTDIR [INPUT.npy ...]: runs an ONNX model in ONNX
// Runtime's CPU execution provider (the npm package onnxruntime-node) on
// NumPy inputs, in the order of the graph's inputs, and writes output_<i>.npy
// into OUTDIR, as amp-run --save-outputs does. Exit code 1 with ORT's
// message when the session cannot be created or run.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

// NumPy dtype <-> ORT tensor type and typed array.
const kTypes = {
  '<f4': ['float32', Float32Array], '<f2': ['float16', Uint16Array],
  '<f8': ['float64', Float64Array], '<i8': ['int64', BigInt64Array],
  '<i4': ['int32', Int32Array], '<i2': ['int16', Int16Array],
  '|b1': ['bool', Uint8Array],
  '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY')
    throw new Error(`${file}: not a NumPy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header))
    throw new Error(`${file}: Fortran order is not supported`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1]
    .split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const entry = kTypes[descr];
  if (!entry) throw new Error(`${file}: unsupported dtype ${descr}`);
  const offset = start + headerLen;
  const bytes = buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + buf.length);
  return new ort.Tensor(entry[0], new entry[1](bytes), shape);
}

function writeNpy(file, tensor) {
  const descr = Object.keys(kTypes).find((k) => kTypes[k][0] === tensor.type);
  if (!descr) throw new Error(`output of type ${tensor.type} is not supported`);
  const dims = tensor.dims.join(', ') + (tensor.dims.length === 1 ? ',' : '');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), data]));
}

async function main() {
  const [model, outDir, ...inputs] = process.argv.slice(2);
  if (!model || !outDir) {
    console.error('usage: ort-run.js MODEL.onnx OUTDIR [INPUT.npy ...]');
    process.exit(2);
  }
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'], graphOptimizationLevel: process.env.ORT_OPT || 'all'});
  if (inputs.length !== session.inputNames.length)
    throw new Error(`the model has ${session.inputNames.length} inputs, ` +
                    `${inputs.length} given`);
  const feeds = {};
  session.inputNames.forEach((name, i) => { feeds[name] = readNpy(inputs[i]); });
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, {recursive: true});
  session.outputNames.forEach((name, i) => {
    writeNpy(path.join(outDir, `output_${i}.npy`), results[name]);
  });
}

main().catch((e) => { console.error(`ort-run: error: ${e.message}`); process.exit(1); });
