// launch/baseline.cpp — `warpsim compare A B` (see baseline.hpp).
#include "launch/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace warpsim::launch {
namespace {

std::string num(double v) {
    char buf[64];
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

BaselineRow numeric(std::string metric, std::optional<double> a, std::optional<double> b) {
    BaselineRow r;
    r.metric = std::move(metric);
    if (a && !std::isnan(*a)) r.a = a;
    if (b && !std::isnan(*b)) r.b = b;
    return r;
}

BaselineRow text(std::string metric, std::string a, std::string b) {
    BaselineRow r;
    r.metric = std::move(metric);
    r.a_text = std::move(a);
    r.b_text = std::move(b);
    return r;
}

std::optional<double> metric_of(const RunReport& r, const std::string& name) {
    auto it = r.metrics.find(name);
    if (it == r.metrics.end()) return std::nullopt;
    return it->second;
}

std::optional<double> time_of(const RunReport& r) {
    if (r.measured) return r.measured->time_us;
    if (r.predicted) return r.predicted->time_us;
    return std::nullopt;
}

bool is_text(const BaselineRow& r) {
    return !r.a_text.empty() || !r.b_text.empty();
}

// How far apart the two sides are, for the order: |log(b / a)|, infinite when one side is 0 or missing.
double distance(const BaselineRow& r) {
    if (!r.changed()) return 0;
    if (!r.a || !r.b || *r.a == 0 || *r.b == 0 || (*r.a < 0) != (*r.b < 0))
        return std::numeric_limits<double>::infinity();
    return std::fabs(std::log(*r.b / *r.a));
}

std::string difference_text(const BaselineRow& r) {
    if (is_text(r)) return r.changed() ? "differs" : "same";
    if (!r.a || !r.b) return "";
    const double d = *r.b - *r.a;
    return (d > 0 ? "+" : "") + num(d);
}

std::string ratio_text(const BaselineRow& r) {
    if (is_text(r)) return "";
    const double q = r.ratio();
    if (std::isnan(q)) return "";
    if (std::isinf(q)) return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3gx", q);
    return buf;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string value_text(const std::optional<double>& v, const std::string& t) {
    return !t.empty() ? t : v ? num(*v) : "";
}

}  // namespace

bool BaselineRow::changed() const {
    if (is_text(*this)) return a_text != b_text;
    if (a.has_value() != b.has_value()) return true;
    return a && *a != *b;
}

double BaselineRow::ratio() const {
    if (!a || !b) return std::numeric_limits<double>::quiet_NaN();
    if (*a == *b) return 1;
    if (*a == 0) return std::numeric_limits<double>::infinity();
    return *b / *a;
}

Baseline make_baseline(const RunReport& a, const RunReport& b, std::string a_label, std::string b_label,
                       const std::vector<std::string>& filters) {
    Baseline base;
    base.a_label = std::move(a_label);
    base.b_label = std::move(b_label);
    auto& h = base.headline;
    if (a.error || b.error) {
        auto err = [](const RunReport& r) {
            return r.error ? r.error->name + ": " + r.error->message : "none";
        };
        h.push_back(text("error", err(a), err(b)));
    }
    h.push_back(numeric("time_us", time_of(a), time_of(b)));
    auto bound = [](const RunReport& r) { return r.predicted ? r.predicted->bound : std::string("-"); };
    if (a.predicted || b.predicted) h.push_back(text("bound", bound(a), bound(b)));
    auto regs = [](const RunReport& r) -> std::optional<double> {
        if (!r.launch.registers_per_thread) return std::nullopt;
        return double(*r.launch.registers_per_thread);
    };
    h.push_back(numeric("registers_per_thread", regs(a), regs(b)));
    auto occ = [](const RunReport& r, int which) -> std::optional<double> {
        if (!r.occupancy) return std::nullopt;
        return which == 0 ? double(r.occupancy->blocks_per_sm) : r.occupancy->occupancy;
    };
    h.push_back(numeric("occupancy.blocks_per_sm", occ(a, 0), occ(b, 0)));
    h.push_back(numeric("occupancy.fraction", occ(a, 1), occ(b, 1)));
    std::set<uint32_t> args;
    for (const auto& x : a.buffers) args.insert(x.arg);
    for (const auto& x : b.buffers) args.insert(x.arg);
    auto hash = [](const RunReport& r, uint32_t arg) {
        for (const auto& x : r.buffers)
            if (x.arg == arg) return x.fnv1a;
        return std::string("-");
    };
    for (uint32_t arg : args)
        h.push_back(text("buffer args[" + std::to_string(arg) + "] fnv1a", hash(a, arg), hash(b, arg)));

    std::set<std::string> names;
    for (const auto& [k, v] : a.metrics) names.insert(k);
    for (const auto& [k, v] : b.metrics) names.insert(k);
    for (const auto& name : names) {
        const bool wanted =
            filters.empty() || std::any_of(filters.begin(), filters.end(), [&](const std::string& f) {
                return name.find(f) != std::string::npos;
            });
        if (wanted) base.metrics.push_back(numeric(name, metric_of(a, name), metric_of(b, name)));
    }
    // Changed first, the largest change first; ties and equal rows by name (already sorted: stable).
    std::stable_sort(base.metrics.begin(), base.metrics.end(),
                     [](const BaselineRow& x, const BaselineRow& y) { return distance(x) > distance(y); });
    return base;
}

std::string baseline_text(const Baseline& base, bool all) {
    std::vector<const BaselineRow*> shown;
    size_t equal = 0;
    for (const auto& r : base.headline) shown.push_back(&r);
    const size_t headline = shown.size();
    for (const auto& r : base.metrics) {
        if (r.changed() || all)
            shown.push_back(&r);
        else
            ++equal;
    }
    size_t w[5] = {6, 1, 1, 5, 5};
    for (const auto* r : shown) {
        w[0] = std::max(w[0], r->metric.size());
        w[1] = std::max(w[1], value_text(r->a, r->a_text).size());
        w[2] = std::max(w[2], value_text(r->b, r->b_text).size());
        w[3] = std::max(w[3], difference_text(*r).size());
        w[4] = std::max(w[4], ratio_text(*r).size());
    }
    auto line = [&](const std::string& m, const std::string& a, const std::string& b, const std::string& d,
                    const std::string& q) {
        char buf[2048];
        std::snprintf(buf, sizeof buf, "%-*s  %*s  %*s  %*s  %*s\n", int(w[0]), m.c_str(), int(w[1]),
                      a.c_str(), int(w[2]), b.c_str(), int(w[3]), d.c_str(), int(w[4]), q.c_str());
        std::string s = buf;
        while (s.size() > 1 && s[s.size() - 2] == ' ') s.erase(s.size() - 2, 1);  // no trailing blanks
        return s;
    };
    std::string out = base.a_label + "\n" + base.b_label + "\n";
    out += line("metric", "A", "B", "B - A", "B / A");
    for (size_t i = 0; i < shown.size(); ++i) {
        if (i == headline && headline < shown.size()) out += "\n";
        const auto* r = shown[i];
        out += line(r->metric, value_text(r->a, r->a_text).empty() ? "-" : value_text(r->a, r->a_text),
                    value_text(r->b, r->b_text).empty() ? "-" : value_text(r->b, r->b_text),
                    difference_text(*r), ratio_text(*r));
    }
    if (equal > 0)
        out += std::to_string(equal) + " more metrics are equal on both sides (--all lists them)\n";
    return out;
}

std::string baseline_csv(const Baseline& base) {
    std::string out = "metric,a,b,difference,ratio\n";
    auto row = [&](const BaselineRow& r) {
        std::string d, q;
        if (!is_text(r) && r.a && r.b) {
            d = num(*r.b - *r.a);
            const double ratio = r.ratio();
            q = std::isinf(ratio) ? "inf" : num(ratio);
        }
        out += csv_field(r.metric) + "," + csv_field(value_text(r.a, r.a_text)) + "," +
               csv_field(value_text(r.b, r.b_text)) + "," + d + "," + q + "\n";
    };
    for (const auto& r : base.headline) row(r);
    for (const auto& r : base.metrics) row(r);
    return out;
}

nlohmann::ordered_json baseline_json(const Baseline& base) {
    using ojson = nlohmann::ordered_json;
    ojson j;
    j["schema"] = 1;
    j["a"] = base.a_label;
    j["b"] = base.b_label;
    ojson rows = ojson::array();
    auto row = [&](const BaselineRow& r) {
        ojson x;
        x["metric"] = r.metric;
        if (is_text(r)) {
            x["a"] = r.a_text;
            x["b"] = r.b_text;
            x["changed"] = r.changed();
        } else {
            x["a"] = r.a ? ojson(*r.a) : ojson(nullptr);
            x["b"] = r.b ? ojson(*r.b) : ojson(nullptr);
            x["difference"] = r.a && r.b ? ojson(*r.b - *r.a) : ojson(nullptr);
            const double q = r.ratio();
            x["ratio"] = std::isnan(q) ? ojson(nullptr) : std::isinf(q) ? ojson("inf") : ojson(q);
            x["changed"] = r.changed();
        }
        rows.push_back(std::move(x));
    };
    for (const auto& r : base.headline) row(r);
    for (const auto& r : base.metrics) row(r);
    j["rows"] = std::move(rows);
    return j;
}

}  // namespace warpsim::launch
