// Record layouts of the C API: see layout.hpp.
#include "layout.hpp"

#include <algorithm>
#include <cstring>

namespace dtpp::capi {
namespace {

// Places a record of `size` bytes at the next offset aligned as the checker aligns records.
std::uint32_t place(std::uint32_t& offset, std::uint32_t size) {
  const std::uint32_t align = std::min<std::uint32_t>(std::max<std::uint32_t>(size, 1), 8);
  offset = (offset + align - 1) / align * align;
  const auto at = offset;
  offset += size;
  return at;
}

std::uint16_t alignment_of(std::uint32_t size) {
  return static_cast<std::uint16_t>(std::min<std::uint32_t>(std::max<std::uint32_t>(size, 1), 8));
}

dtrace_actkind_t action_of(ir::action a) {
  switch (a) {
    case ir::action::trace: return DTRACEACT_DIFEXPR;
    case ir::action::printf: return DTRACEACT_PRINTF;
    case ir::action::printa: return DTRACEACT_PRINTA;
    case ir::action::exit: return DTRACEACT_EXIT;
    case ir::action::stack: return DTRACEACT_STACK;
    case ir::action::ustack: return DTRACEACT_USTACK;
    default: return DTRACEACT_LIBACT;  // clear, trunc, normalize, denormalize, setopt
  }
}

// Records naming an aggregation: dtpp writes them as 4-byte ids, libdtrace's consumers read a
// dtrace_aggvarid_t.
bool holds_aggregation_id(const ir::statement& s, std::size_t record) {
  switch (s.kind) {
    case ir::action::printa: return true;
    case ir::action::clear:
    case ir::action::trunc:
    case ir::action::normalize:
    case ir::action::denormalize: return record == 0;
    default: return false;
  }
}

}  // namespace

clause_layout lay_out(const ir::clause& c, std::uint64_t& next_uarg) {
  clause_layout out;
  std::size_t n = 0;
  for (const auto& s : c.statements) n += s.records.size();
  out.desc = with_records<dtrace_eprobedesc_t>(n);
  auto& desc = *out.desc;
  desc.dtepd_epid = c.id;
  desc.dtepd_nrecs = static_cast<int>(n);
  std::uint32_t offset = 0;
  int index = 0;
  for (const auto& s : c.statements) {
    out.first_record.push_back(s.records.empty() ? -1 : index);
    const auto uarg = ++next_uarg;
    for (std::size_t i = 0; i < s.records.size(); ++i, ++index) {
      const auto& r = s.records[i];
      auto& rec = desc.dtepd_rec[index];
      rec.dtrd_action = action_of(s.kind);
      rec.dtrd_size = holds_aggregation_id(s, i) ? sizeof(dtrace_aggvarid_t) : r.size;
      rec.dtrd_offset = place(offset, rec.dtrd_size);
      rec.dtrd_alignment = alignment_of(rec.dtrd_size);
      rec.dtrd_format = s.has_format ? 1 : 0;
      rec.dtrd_arg = r.t.is_stack() ? r.size / 8 : 0;  // frames, 8 bytes each
      rec.dtrd_uarg = uarg;
      out.source_offset.push_back(r.offset);
      out.source_size.push_back(r.size);
    }
  }
  desc.dtepd_size = offset;
  return out;
}

void clause_layout::copy(std::span<const std::byte> from, std::byte* out) const {
  for (int i = 0; i < desc->dtepd_nrecs; ++i) {
    const auto at = source_offset[i];
    if (at >= from.size()) continue;
    // A widened aggregation id keeps its value: little-endian, the high bytes stay zero.
    const std::size_t n = std::min<std::size_t>(source_size[i], from.size() - at);
    std::memcpy(out + desc->dtepd_rec[i].dtrd_offset, from.data() + at, n);
  }
}

std::unique_ptr<dtrace_aggdesc_t, free_deleter> describe(const agg::descriptor& d,
                                                         std::uint32_t epid) {
  const std::size_t n = d.keys.size() + 2;
  auto out = with_records<dtrace_aggdesc_t>(n);
  auto& desc = *out;
  desc.dtagd_varid = d.varid;
  desc.dtagd_id = d.varid;
  desc.dtagd_epid = epid;
  desc.dtagd_nrecs = static_cast<int>(n);
  std::uint32_t offset = 0;
  const auto add = [&](int i, dtrace_actkind_t action, std::uint32_t size, std::uint64_t arg) {
    auto& rec = desc.dtagd_rec[i];
    rec.dtrd_action = action;
    rec.dtrd_size = size;
    rec.dtrd_offset = place(offset, size);
    rec.dtrd_alignment = alignment_of(size);
    rec.dtrd_arg = arg;
    rec.dtrd_uarg = d.varid;
  };
  add(0, DTRACEACT_DIFEXPR, sizeof(dtrace_aggvarid_t), 0);
  for (std::size_t k = 0; k < d.keys.size(); ++k) {
    const auto& t = d.keys[k];
    // A string of unbounded size (typed aggregations) takes D's default strsize.
    const std::uint32_t size = t.kind == agg::key_type::category::string && t.size == 0 ? 256 : t.size;
    add(static_cast<int>(k + 1), DTRACEACT_DIFEXPR, size, 0);
  }
  add(static_cast<int>(n - 1), static_cast<dtrace_actkind_t>(DTRACEAGG_COUNT + static_cast<int>(d.fn.kind)),
      static_cast<std::uint32_t>(d.fn.words() * sizeof(std::uint64_t)), d.fn.param);
  desc.dtagd_size = (offset + 7) / 8 * 8;  // tuples follow each other 8-aligned
  return out;
}

void write_tuple(const dtrace_aggdesc_t& desc, const agg::dynamic_key& key,
                 std::span<const std::uint64_t> words, std::byte* out) {
  const dtrace_aggvarid_t varid = desc.dtagd_varid;
  std::memcpy(out + desc.dtagd_rec[0].dtrd_offset, &varid, sizeof varid);
  for (std::size_t k = 0; k < key.records.size(); ++k) {
    const auto& r = key.records[k];
    const auto& rec = desc.dtagd_rec[k + 1];
    if (r.type.holds_bytes())  // zero-padded, so a string ends with a NUL within its record
      std::memcpy(out + rec.dtrd_offset, r.string.data(),
                  std::min<std::size_t>(r.string.size(), rec.dtrd_size - (r.type.is_stack() ? 0 : 1)));
    else  // little-endian: the low bytes of the value
      std::memcpy(out + rec.dtrd_offset, &r.integer, std::min<std::size_t>(rec.dtrd_size, 8));
  }
  const auto& value = desc.dtagd_rec[desc.dtagd_nrecs - 1];
  std::memcpy(out + value.dtrd_offset, words.data(), std::min<std::size_t>(value.dtrd_size, words.size_bytes()));
}

}  // namespace dtpp::capi
