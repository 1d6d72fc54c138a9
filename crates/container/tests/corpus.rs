//! Every DXBC and DXIL container of the shared corpus reads with its common parts, and the
//! checksum verdict agrees with the corpus manifest (`details.checksum`: `valid`, or `zero`
//! for an unsigned container).

use dxspv_container::Parts;
use dxspv_testkit::Corpus;

#[test]
fn corpus_containers_read_and_checksums_agree_with_the_manifest() {
    let Some(corpus) = Corpus::open() else { return };
    let mut checked = 0;
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
        checked += 1;
    }
    println!("{checked} containers read");
    assert_eq!(
        checked,
        corpus.of_format("dxbc").len() + corpus.of_format("dxil").len()
    );
    assert!(checked > 1000, "only {checked} containers in the manifest");
}
