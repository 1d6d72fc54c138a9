//! Image facts every frontend needs: the coordinate shape of each resource kind and Direct3D's
//! standard multisample patterns.

use crate::ResourceKind;

/// Direct3D's standard sample positions (`D3D11_STANDARD_MULTISAMPLE_PATTERN`) in 1/16 pixel
/// for 1, 2, 4, 8 and 16 samples, in that order: the pattern for `n` samples starts at index
/// `n - 1`.
pub const STANDARD_SAMPLE_POSITIONS: [(i8, i8); 31] = [
    (0, 0),
    (4, 4),
    (-4, -4),
    (-2, -6),
    (6, -2),
    (-6, 2),
    (2, 6),
    (1, -3),
    (-1, 3),
    (5, 1),
    (-3, -5),
    (-5, 5),
    (-7, -1),
    (3, 7),
    (7, -7),
    (1, 1),
    (-1, -3),
    (-3, 2),
    (4, -1),
    (-5, -2),
    (2, 5),
    (5, 3),
    (3, -5),
    (-2, 6),
    (0, -7),
    (-4, -6),
    (-6, 4),
    (-8, 0),
    (7, -4),
    (6, 7),
    (-7, -8),
];

/// Coordinate components, whether there is an array layer, size components and offset
/// components of a resource kind.
pub fn image_shape(kind: ResourceKind) -> (usize, bool, usize, usize) {
    use ResourceKind as K;
    match kind {
        K::Image1D => (1, false, 1, 1),
        K::Image1DArray => (1, true, 1, 1),
        K::Image2D | K::Image2DMS | K::FeedbackImage2D => (2, false, 2, 2),
        K::Image2DArray | K::Image2DMSArray | K::FeedbackImage2DArray => (2, true, 2, 2),
        K::Image3D => (3, false, 3, 3),
        K::ImageCube => (3, false, 2, 0),
        K::ImageCubeArray => (3, true, 2, 0),
        _ => (1, false, 1, 0),
    }
}
