//! DXGI formats as Vulkan formats.

use ash::vk;

/// DXGI format name → Vulkan format and texel size in bytes.
pub fn dxgi_format(name: &str) -> Option<(vk::Format, usize)> {
    use vk::Format as F;
    Some(match name {
        "R32G32B32A32_FLOAT" => (F::R32G32B32A32_SFLOAT, 16),
        "R32G32B32A32_UINT" => (F::R32G32B32A32_UINT, 16),
        "R32G32B32A32_SINT" => (F::R32G32B32A32_SINT, 16),
        "R32G32B32_FLOAT" => (F::R32G32B32_SFLOAT, 12),
        "R32G32B32_UINT" => (F::R32G32B32_UINT, 12),
        "R32G32B32_SINT" => (F::R32G32B32_SINT, 12),
        "R32G32_FLOAT" => (F::R32G32_SFLOAT, 8),
        "R32G32_UINT" => (F::R32G32_UINT, 8),
        "R32G32_SINT" => (F::R32G32_SINT, 8),
        "R32_FLOAT" => (F::R32_SFLOAT, 4),
        "R32_UINT" => (F::R32_UINT, 4),
        "R32_SINT" => (F::R32_SINT, 4),
        "R16G16B16A16_FLOAT" => (F::R16G16B16A16_SFLOAT, 8),
        "R16G16B16A16_UNORM" => (F::R16G16B16A16_UNORM, 8),
        "R16G16B16A16_UINT" => (F::R16G16B16A16_UINT, 8),
        "R16G16B16A16_SINT" => (F::R16G16B16A16_SINT, 8),
        "R16G16B16A16_SNORM" => (F::R16G16B16A16_SNORM, 8),
        "R16G16_SNORM" => (F::R16G16_SNORM, 4),
        "R16G16_SINT" => (F::R16G16_SINT, 4),
        "R16G16_FLOAT" => (F::R16G16_SFLOAT, 4),
        "R16G16_UNORM" => (F::R16G16_UNORM, 4),
        "R16G16_UINT" => (F::R16G16_UINT, 4),
        "R16_FLOAT" => (F::R16_SFLOAT, 2),
        "R16_UNORM" => (F::R16_UNORM, 2),
        "R16_UINT" => (F::R16_UINT, 2),
        "R16_SINT" => (F::R16_SINT, 2),
        "R8G8B8A8_UNORM" => (F::R8G8B8A8_UNORM, 4),
        "R8G8B8A8_SNORM" => (F::R8G8B8A8_SNORM, 4),
        "R8G8B8A8_UINT" => (F::R8G8B8A8_UINT, 4),
        "R8G8B8A8_SINT" => (F::R8G8B8A8_SINT, 4),
        "B8G8R8A8_UNORM" => (F::B8G8R8A8_UNORM, 4),
        "R8G8_UNORM" => (F::R8G8_UNORM, 2),
        "R8G8_SNORM" => (F::R8G8_SNORM, 2),
        "R8G8_UINT" => (F::R8G8_UINT, 2),
        "R8G8_SINT" => (F::R8G8_SINT, 2),
        "R8_UNORM" => (F::R8_UNORM, 1),
        "R8_UINT" => (F::R8_UINT, 1),
        "R8_SINT" => (F::R8_SINT, 1),
        "R8_SNORM" => (F::R8_SNORM, 1),
        "R10G10B10A2_UNORM" => (F::A2B10G10R10_UNORM_PACK32, 4),
        "R10G10B10A2_UINT" => (F::A2B10G10R10_UINT_PACK32, 4),
        "R11G11B10_FLOAT" => (F::B10G11R11_UFLOAT_PACK32, 4),
        _ => return None,
    })
}
