// kernels_ir/forms/mods.hpp — reading modifiers into a typed form: every modifier must be claimed by one slot
// of the family's grammar; an unclaimed one, or a slot written twice, is a FormError naming that modifier.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels_ir/forms/form.hpp"

namespace warpsim::ir::forms_detail {

template <typename E>
using Choices = std::initializer_list<std::pair<std::string_view, E>>;

class ModReader {
  public:
    // `what` names the instruction in messages ("mbarrier.arrive"); `section` is its PTX ISA section.
    // `vocabulary` lists every modifier the family knows besides the type names: a modifier outside it is
    // reported as unknown even when a slot is also missing, so that a typo is named as itself.
    ModReader(const std::vector<std::string>& mods, std::string what, std::string_view section,
              std::span<const std::string_view> vocabulary)
        : mods_(mods),
          claimed_(mods.size(), false),
          what_(std::move(what)),
          section_(section),
          vocabulary_(vocabulary) {}

    const std::string& what() const { return what_; }
    void rename(std::string what) { what_ = std::move(what); }

    // Claims `m` when it is written; twice is an error.
    bool flag(std::string_view m) {
        bool seen = false;
        for (std::size_t i = 0; i < mods_.size(); ++i) {
            if (claimed_[i] || mods_[i] != m) continue;
            claimed_[i] = true;
            if (seen) fail(i, "'." + std::string(m) + "' is written twice");
            seen = true;
        }
        return seen;
    }

    // Claims the modifiers that name one of `choices`; `slot` names the slot in messages ("scope").
    template <typename E>
    std::optional<E> one(Choices<E> choices, std::string_view slot) {
        std::optional<E> out;
        std::string first;
        for (std::size_t i = 0; i < mods_.size(); ++i) {
            if (claimed_[i]) continue;
            for (const auto& [name, value] : choices) {
                if (mods_[i] != name) continue;
                claimed_[i] = true;
                if (out) {
                    fail(i, "'." + mods_[i] + "' and '." + first + "' both give the " + std::string(slot));
                } else {
                    out = value;
                    first = mods_[i];
                    picked_ = i;
                }
                break;
            }
        }
        return out;
    }

    // The index of the first unclaimed modifier that is `m`, without claiming it.
    std::optional<std::size_t> find(std::string_view m) const {
        for (std::size_t i = 0; i < mods_.size(); ++i) {
            if (!claimed_[i] && mods_[i] == m) return i;
        }
        return std::nullopt;
    }
    void claim(std::size_t i) { claimed_[i] = true; }
    std::size_t size() const { return mods_.size(); }
    const std::string& at(std::size_t i) const { return mods_[i]; }
    bool claimed(std::size_t i) const { return claimed_[i]; }

    void fail(std::size_t mod, std::string message) {
        if (error_) return;  // the first error is the one to fix first
        error_ = FormError{what_ + ": " + std::move(message) + " (PTX ISA " + std::string(section_) + ")",
                           static_cast<uint32_t>(mod)};
    }
    // Something the form needs is not written (reported after unknown modifiers, see finish()).
    void missing(std::string message) {
        if (!missing_) missing_ = std::move(message);
    }

    // The form, or the first error in this order: an ill-formed combination (fail), a modifier outside the
    // family's vocabulary, a missing slot, a known modifier that this form does not take.
    template <typename F>
    Form finish(const F& form, std::string_view accepted) {
        const std::string expected = accepted.empty() ? std::string() : "; it takes " + std::string(accepted);
        for (std::size_t i = 0; i < mods_.size() && !error_; ++i) {
            if (!claimed_[i] && !known(mods_[i])) fail(i, "unknown modifier '." + mods_[i] + "'" + expected);
        }
        if (!error_ && missing_) fail(FormError::kWholeInstruction, *missing_);
        for (std::size_t i = 0; i < mods_.size() && !error_; ++i) {
            if (!claimed_[i]) fail(i, "'." + mods_[i] + "' does not belong here" + expected);
        }
        if (error_) return Form{*error_};
        return Form{form};
    }
    bool failed() const { return error_.has_value() || missing_.has_value(); }
    // The modifier that the last one() call found.
    std::size_t picked() const { return picked_; }

  private:
    const std::vector<std::string>& mods_;
    std::vector<bool> claimed_;
    std::string what_;
    std::string_view section_;
    std::span<const std::string_view> vocabulary_;
    std::optional<FormError> error_;
    std::optional<std::string> missing_;
    std::size_t picked_ = 0;

    bool known(const std::string& m) const {
        if (type_from_name(m)) return true;
        for (std::string_view v : vocabulary_) {
            if (v == m) return true;
        }
        return false;
    }
};

}  // namespace warpsim::ir::forms_detail
