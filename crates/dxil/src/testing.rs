//! A small bitstream writer for unit tests: fields, blocks with back-patched lengths,
//! abbreviation definitions, abbreviated and unabbreviated records, BLOCKINFO, and the
//! DXIL container around the bitcode. It follows LLVM's `BitstreamWriter` encoding rules so
//! tests can build bitcode the corpus does not have (switches, vector ops, forward
//! references, malformed streams).

/// One operand of an abbreviation definition.
#[derive(Clone, Copy, Debug)]
pub enum AbbrevOp {
    /// A literal value.
    Literal(u64),
    /// A fixed-width field.
    Fixed(u32),
    /// A VBR field.
    Vbr(u32),
    /// An array; the next op is its element encoding.
    Array,
    /// A 6-bit character.
    Char6,
    /// A blob.
    Blob,
}

/// A bit-level writer with block and abbreviation helpers.
#[derive(Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    bits: u64,
    width: u32,
    /// Open blocks: (byte offset of the length word, outer abbreviation width, outer abbrevs).
    stack: Vec<(usize, u32, Vec<Vec<AbbrevOp>>)>,
    abbrevs: Vec<Vec<AbbrevOp>>,
}

impl BitWriter {
    /// An empty writer at the top level (abbreviation width 2).
    pub fn new() -> Self {
        BitWriter {
            width: 2,
            ..Default::default()
        }
    }

    /// A writer that has already written the `BC 0xC0DE` magic.
    pub fn with_magic() -> Self {
        let mut w = Self::new();
        for b in [b'B', b'C', 0xC0, 0xDE] {
            w.fixed(u64::from(b), 8);
        }
        w
    }

    /// Writes `width` bits of `value`.
    pub fn fixed(&mut self, value: u64, width: u32) {
        for i in 0..width {
            let bit = (value >> i) & 1;
            let byte = (self.bits / 8) as usize;
            if byte == self.bytes.len() {
                self.bytes.push(0);
            }
            self.bytes[byte] |= (bit as u8) << (self.bits % 8);
            self.bits += 1;
        }
    }

    /// Writes `value` as a VBR with chunks of `width` bits.
    pub fn vbr(&mut self, mut value: u64, width: u32) {
        let high = 1u64 << (width - 1);
        loop {
            let chunk = value & (high - 1);
            value >>= width - 1;
            if value == 0 {
                self.fixed(chunk, width);
                return;
            }
            self.fixed(chunk | high, width);
        }
    }

    /// Pads with zero bits to a multiple of 32.
    pub fn align32(&mut self) {
        while self.bits % 32 != 0 {
            self.fixed(0, 1);
        }
    }

    /// Writes an abbreviation id at the current width.
    pub fn abbrev_id(&mut self, id: u64) {
        self.fixed(id, self.width);
    }

    /// `ENTER_SUBBLOCK` with a new abbreviation width; the length is patched by
    /// [`BitWriter::end_block`].
    pub fn enter_block(&mut self, id: u64, width: u32) {
        self.abbrev_id(1);
        self.vbr(id, 8);
        self.vbr(u64::from(width), 4);
        self.align32();
        let at = (self.bits / 8) as usize;
        self.fixed(0, 32);
        let outer = std::mem::take(&mut self.abbrevs);
        self.stack.push((at, self.width, outer));
        self.width = width;
    }

    /// `END_BLOCK`, patching the block's length word.
    pub fn end_block(&mut self) {
        self.abbrev_id(0);
        self.align32();
        let (at, width, outer) = self.stack.pop().expect("end_block without enter_block");
        let words = ((self.bits / 8) as usize - at - 4) / 4;
        self.bytes[at..at + 4].copy_from_slice(&(words as u32).to_le_bytes());
        self.width = width;
        self.abbrevs = outer;
    }

    /// Writes the operands of an abbreviation definition (after its abbreviation id).
    pub fn abbrev_body(&mut self, ops: &[AbbrevOp]) {
        self.vbr(ops.len() as u64, 5);
        for op in ops {
            match *op {
                AbbrevOp::Literal(v) => {
                    self.fixed(1, 1);
                    self.vbr(v, 8);
                }
                AbbrevOp::Fixed(w) => {
                    self.fixed(0, 1);
                    self.fixed(1, 3);
                    self.vbr(u64::from(w), 5);
                }
                AbbrevOp::Vbr(w) => {
                    self.fixed(0, 1);
                    self.fixed(2, 3);
                    self.vbr(u64::from(w), 5);
                }
                AbbrevOp::Array => {
                    self.fixed(0, 1);
                    self.fixed(3, 3);
                }
                AbbrevOp::Char6 => {
                    self.fixed(0, 1);
                    self.fixed(4, 3);
                }
                AbbrevOp::Blob => {
                    self.fixed(0, 1);
                    self.fixed(5, 3);
                }
            }
        }
    }

    /// `DEFINE_ABBREV` in the current block; returns the new abbreviation's id.
    pub fn define_abbrev(&mut self, ops: &[AbbrevOp]) -> u64 {
        self.abbrev_id(2);
        self.abbrev_body(ops);
        self.abbrevs.push(ops.to_vec());
        self.abbrevs.len() as u64 + 3
    }

    /// Records an abbreviation defined for this block through BLOCKINFO, so
    /// [`BitWriter::abbrev_record`] can use it; returns its id.
    pub fn assume_blockinfo_abbrev(&mut self, ops: &[AbbrevOp]) -> u64 {
        self.abbrevs.insert(0, ops.to_vec());
        4
    }

    /// An unabbreviated record (`UNABBREV_RECORD`).
    pub fn record(&mut self, code: u32, ops: &[u64]) {
        self.abbrev_id(3);
        self.vbr(u64::from(code), 6);
        self.vbr(ops.len() as u64, 6);
        for &op in ops {
            self.vbr(op, 6);
        }
    }

    fn scalar(&mut self, op: AbbrevOp, v: u64) {
        match op {
            AbbrevOp::Literal(l) => assert_eq!(l, v, "literal operand mismatch"),
            AbbrevOp::Fixed(w) => self.fixed(v, w),
            AbbrevOp::Vbr(w) => self.vbr(v, w),
            AbbrevOp::Char6 => {
                let c = match v as u8 {
                    c @ b'a'..=b'z' => c - b'a',
                    c @ b'A'..=b'Z' => c - b'A' + 26,
                    c @ b'0'..=b'9' => c - b'0' + 52,
                    b'.' => 62,
                    _ => 63,
                };
                self.fixed(u64::from(c), 6);
            }
            AbbrevOp::Array | AbbrevOp::Blob => panic!("not a scalar encoding"),
        }
    }

    /// A record through abbreviation `id`; `values` are the code followed by the operands
    /// (an array takes every remaining value; a blob takes `blob`).
    pub fn abbrev_record(&mut self, id: u64, values: &[u64], blob: &[u8]) {
        let ops = self.abbrevs[(id - 4) as usize].clone();
        self.abbrev_id(id);
        let mut vi = 0;
        let mut i = 0;
        while i < ops.len() {
            match ops[i] {
                AbbrevOp::Array => {
                    let elt = ops[i + 1];
                    let rest = &values[vi..];
                    self.vbr(rest.len() as u64, 6);
                    for &v in rest {
                        self.scalar(elt, v);
                    }
                    vi = values.len();
                    i += 2;
                }
                AbbrevOp::Blob => {
                    self.vbr(blob.len() as u64, 6);
                    self.align32();
                    for &b in blob {
                        self.fixed(u64::from(b), 8);
                    }
                    self.align32();
                    i += 1;
                }
                op => {
                    self.scalar(op, values[vi]);
                    vi += 1;
                    i += 1;
                }
            }
        }
    }

    /// The bytes written, padded to a whole number of 32-bit words.
    pub fn finish(mut self) -> Vec<u8> {
        self.align32();
        self.bytes.resize((self.bits / 8) as usize, 0);
        self.bytes
    }
}

/// Operands followed by the characters of a string.
pub fn with_chars(head: &[u64], s: &str) -> Vec<u64> {
    let mut v = head.to_vec();
    v.extend(s.bytes().map(u64::from));
    v
}

/// A DXBC-style container with one `DXIL` part holding `bitcode` for program
/// `kind` (0 = pixel, 1 = vertex, 5 = compute, …) shader model 6.`minor`.
pub fn dxil_container(bitcode: &[u8], kind: u32, minor: u32) -> Vec<u8> {
    let mut part = Vec::new();
    let program_version = (kind << 16) | (6 << 4) | minor;
    let size_words = (24 + bitcode.len()).div_ceil(4) as u32;
    part.extend_from_slice(&program_version.to_le_bytes());
    part.extend_from_slice(&size_words.to_le_bytes());
    part.extend_from_slice(b"DXIL");
    part.extend_from_slice(&0x100u32.to_le_bytes()); // DXIL 1.0
    part.extend_from_slice(&16u32.to_le_bytes()); // bitcode offset from the DXIL magic
    part.extend_from_slice(&(bitcode.len() as u32).to_le_bytes());
    part.extend_from_slice(bitcode);
    container(&[(*b"DXIL", part)])
}

/// A DXBC-style container holding `parts` (checksum zero).
pub fn container(parts: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let header = 32 + 4 * parts.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // size, patched below
    out.extend_from_slice(&(parts.len() as u32).to_le_bytes());
    let mut offset = header;
    for (_, data) in parts {
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += 8 + data.len();
    }
    for (fourcc, data) in parts {
        out.extend_from_slice(fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
    }
    let size = out.len() as u32;
    out[24..28].copy_from_slice(&size.to_le_bytes());
    out
}

/// A record or a block of a bitcode tree written by [`bitcode`].
#[derive(Clone, Debug)]
pub enum Item {
    /// An unabbreviated record: code and operands.
    Record(u32, Vec<u64>),
    /// A block: id and contents.
    Block(u32, Vec<Item>),
}

/// A record.
pub fn r(code: u32, ops: &[u64]) -> Item {
    Item::Record(code, ops.to_vec())
}

/// A record whose operands end with the bytes of `s`.
pub fn rs(code: u32, head: &[u64], s: &str) -> Item {
    Item::Record(code, with_chars(head, s))
}

/// A block.
pub fn blk(id: u32, items: Vec<Item>) -> Item {
    Item::Block(id, items)
}

fn write_items(w: &mut BitWriter, items: &[Item]) {
    for item in items {
        match item {
            Item::Record(code, ops) => w.record(*code, ops),
            Item::Block(id, inner) => {
                w.enter_block(u64::from(*id), 4);
                write_items(w, inner);
                w.end_block();
            }
        }
    }
}

/// Bitcode (magic and the given top-level items, unabbreviated).
pub fn bitcode(items: &[Item]) -> Vec<u8> {
    let mut w = BitWriter::with_magic();
    write_items(&mut w, items);
    w.finish()
}

/// Bitcode of a module block holding `VERSION 1` and `items`.
pub fn module(items: Vec<Item>) -> Vec<u8> {
    let mut all = vec![r(1, &[1])];
    all.extend(items);
    bitcode(&[blk(8, all)])
}

/// Writes `bytes` to `$DXSPV_DXIL_DUMP/<name>.bc` when that variable is set (to check a
/// test's bitcode with `llvm-dis-14` by hand).
pub fn dump(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("DXSPV_DXIL_DUMP") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(std::path::Path::new(&dir).join(format!("{name}.bc")), bytes);
    }
}
