/** Drops an incomplete UTF-8 sequence at the end of a buffer cut at a byte limit, so text ends on a whole character. */
export function wholeCharacters(data: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, data.length); back++) {
    const byte = data[data.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? data.subarray(0, data.length - back) : data;
  }
  return data;
}
