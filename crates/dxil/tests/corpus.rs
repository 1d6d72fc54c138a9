//! Every DXIL shader of the shared corpus reads: container, program header, bitstream.

use dxspv_container::{Container, DxilProgram, FourCC};
use dxspv_testkit::Corpus;

#[test]
fn every_corpus_bitstream_walks() {
    let Some(corpus) = Corpus::open() else {
        return;
    };
    let entries = corpus.of_format("dxil");
    let mut records = 0;
    for e in &entries {
        let bytes = corpus.read(e);
        let c = Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.path));
        let part = c.part(FourCC::DXIL).expect("DXIL part");
        let p = DxilProgram::parse(part.fourcc, part.data).expect("program header");
        let stats = dxspv_dxil::bitstream::walk(p.bitcode)
            .unwrap_or_else(|err| panic!("{}: {err}", e.path));
        println!("{} {}", e.path, stats.records);
        if let Err(err) = dxspv_dxil::module::Module::read(p.bitcode) {
            println!("MODULE ERROR {}: {err}", e.path);
        }
        records += stats.records;
    }
    println!("{} files, {records} records", entries.len());
}
