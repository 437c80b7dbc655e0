// launch/outcome.hpp — a value or an error message, for functions whose failure is bad user input.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace warpsim::launch {

// std::expected is C++23; this is the small subset the launch layer needs. An Outcome holds either a
// value or a non-empty error message that already names the file (and field or line) it is about.
template <class T>
class Outcome {
  public:
    Outcome(T value)
        : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor): returned implicitly
    static Outcome failure(std::string message) { return Outcome(Error{std::move(message)}); }
    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T& operator*() const& { return *value_; }
    T& operator*() & { return *value_; }
    const T* operator->() const { return &*value_; }
    T* operator->() { return &*value_; }
    const std::string& error() const { return error_; }

  private:
    struct Error {
        std::string message;
    };
    explicit Outcome(Error e) : error_(std::move(e.message)) {}
    std::optional<T> value_;
    std::string error_;
};

}  // namespace warpsim::launch
