//! Every DXBC and DXIL container of the shared corpus reads with its common parts, and the
//! checksum verdict agrees with the corpus manifest (`details.checksum`: `valid`, or `zero`
//! for an unsigned container). Every PSV0, RTS0 and HASH part reads.

// Tests may unwrap, panic and print (production code may not: see the workspace lints).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr
)]
use dxspv_container::{FourCC, Parts};
use dxspv_testkit::Corpus;

#[test]
fn corpus_containers_read_and_checksums_agree_with_the_manifest() {
    let Some(corpus) = Corpus::open() else { return };
    let mut checked = 0;
    let mut root_signatures = 0;
    for entry in corpus
        .of_format("dxbc")
        .into_iter()
        .chain(corpus.of_format("dxil"))
    {
        let bytes = corpus.read(entry);
        let p = &entry.path;
        let parts = Parts::parse(&bytes).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(parts.program.is_some(), "{p}: no program part");
        match entry.detail_str("checksum") {
            Some("valid") => assert_eq!(parts.container.checksum_ok(), Some(true), "{p}"),
            Some("zero") => assert_eq!(parts.container.stored_checksum, [0; 4], "{p}"),
            other => panic!("{p}: unexpected manifest checksum {other:?}"),
        }
        assert!(parts.warnings.is_empty(), "{p}: {:?}", parts.warnings);
        let has = |f: FourCC| parts.container.part(f).is_some();
        assert_eq!(
            has(FourCC::PSV0),
            parts.pipeline_state.is_some(),
            "{p}: PSV0"
        );
        assert_eq!(
            has(FourCC::RTS0),
            parts.root_signature.is_some(),
            "{p}: RTS0"
        );
        assert_eq!(has(FourCC::HASH), parts.hash.is_some(), "{p}: HASH");
        if let Some(rs) = &parts.root_signature {
            root_signatures += 1;
            // A root signature a Direct3D 12 runtime accepts binds something or is empty.
            assert!(
                (1..=3).contains(&rs.version),
                "{p}: RTS0 version {}",
                rs.version
            );
        }
        checked += 1;
    }
    println!("{checked} containers read, {root_signatures} root signatures");
    assert_eq!(
        checked,
        corpus.of_format("dxbc").len() + corpus.of_format("dxil").len()
    );
    assert!(checked > 1000, "only {checked} containers in the manifest");
}
