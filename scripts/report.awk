# report.awk - one experiment's CSV (bloomsim's columns, docs/model.md) to Markdown tables in
# the seeds' form, and the data files gnuplot draws. Variables: name (experiment),
# plotdir (where to write NAME-*.dat; empty for no data files).
#
# Plain sweeps: one table per filter size, bits per key down the side, schemes across,
# each cell the ratio of the measured rate to the formula with its standard error.
# Designs and stacks: one table per design rate, keys inserted down the side, each
# structure and scheme across, each cell the rate in percent with its standard error.
# Experiments with a model column (guava, hash32: a few big points, several sweeps): one
# table per point, a row per scheme, the rate beside the formula and the model.
# Experiments with fingerprint filters (expandable): keys down the side, each structure
# across, the rate, then bits per key and places a lookup consults; a second sweep's rows
# against their exact rates.
# Sweeps of libraries: a row per library, a column per design; with real keys (issue 22)
# also each key set's rate over the library's ideal-word rate (keyset_table).

function round_to(v, dec) { return sprintf("%." (dec > 0 ? dec : 0) "f", v) }

# v +- se, both rounded to the standard error's first significant digit (two when it
# starts with 1).
function pm(v, se,    e, dec, unit) {
    if (se == "" || se + 0 <= 0)
        return sprintf("%.4g", v)
    e = int(log(se) / log(10)); if (se < 10 ^ e) e--; if (se >= 10 ^ (e + 1)) e++
    dec = -e + (se / 10 ^ e < 2 ? 1 : 0)
    if (dec <= 0) {
        unit = 10 ^ (-dec)
        return sprintf("%.0f", int(v / unit + 0.5) * unit) " ± " sprintf("%.0f", int(se / unit + 0.5) * unit)
    }
    return round_to(v, dec) " ± " round_to(se, dec)
}

function comma(x,    s, r) {
    s = sprintf("%.0f", x); r = ""
    while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
    return s r
}

# Row r's value in the column of that header name (the header is read first: columns
# are found by name, never by position). Our tables quote no numeric field.
function val(r, name) {
    if (!(name in col)) { print "report.awk: no column " name > "/dev/stderr"; exit 2 }
    return c[r, col[name]]
}

# Split a CSV line into f[1..n]; a field in double quotes (a library name with its hash,
# which holds commas) may hold commas and doubled quotes. Returns n.
function csvsplit(line, f,    n, i, ch, q, v) {
    if (index(line, "\"") == 0) return split(line, f, ",")
    n = 1; v = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        ch = substr(line, i, 1)
        if (q && ch == "\"" && substr(line, i + 1, 1) == "\"") { v = v ch; i++ }
        else if (ch == "\"") q = !q
        else if (!q && ch == ",") { f[n++] = v; v = "" }
        else v = v ch
    }
    f[n] = v
    return n
}

BEGIN { FS = "," }
{ sub(/\r$/, "") }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    nrow++
    nf = csvsplit($0, fld)
    for (i = 1; i <= nf; i++) c[nrow, i] = fld[i]
}

END {
    for (r = 1; r <= nrow; r++) if (val(r, "model") != "") modelled = 1
    # Tables written before a column existed lack it: block_bits came with issue 11.
    if ("block_bits" in col) for (r = 1; r <= nrow; r++) if (val(r, "block_bits") != "") blocked = 1
    design = val(1, "design_keys") != ""
    # Fingerprint filters (issue 21) came with the structure and expansions columns.
    if ("expansions" in col) for (r = 1; r <= nrow; r++) if (val(r, "expansions") != "") expandable = 1
    # Sweeps of libraries (issue 12) came with the library column.
    if (expandable) expandable_tables()
    else if ("library" in col && val(1, "library") != "") library_tables()
    else if (blocked) blocked_tables()
    else if (modelled) model_tables(); else if (!design) plain_tables(); else design_tables()
}

# ---- experiments with blocked schemes (blocked, split-block-sizing) ----
# A scheme is labelled with its block size (blocked/512). Plain rows: one table per
# filter size, bits per key down, schemes across, each cell the measured rate over the
# formula (± one standard error) and, in brackets, the scheme's exact rate over the
# formula. Designs: one table per run of design rates, a row per design: its size in
# bits per key, k, the measured rate and over the target, and the exact rate.
function label(r) { return val(r, "scheme") (val(r, "block_bits") != "" ? "/" val(r, "block_bits") : "") }
function ratio_pm(r) { return pm(val(r, "ratio_formula"), val(r, "ratio_formula") * val(r, "stderr") / (val(r, "rate") > 0 ? val(r, "rate") : 1)) }
function blocked_tables(    r, m, b, l, i, j, line, sep, last, lastl, dat) {
    for (r = 1; r <= nrow; r++) {
        if (val(r, "design_keys") != "") continue
        m = val(r, "m") + 0; b = val(r, "bits_per_key"); l = label(r)
        if (!(m in mseen)) { mseen[m] = 1; nm++; msize[nm] = m }
        if (!((m, b) in bseen)) { bseen[m, b] = 1; nbm[m]++; bat[m, nbm[m]] = b }
        if (!(l in lseen)) { lseen[l] = 1; nl++; lname[nl] = l }
        cell[m, b, l] = ratio_pm(r) " [" sprintf("%.3g", val(r, "scheme_exact") / val(r, "formula")) "]"
        if (plotdir != "") { # column 6 is the scheme's own exact rate
            dat = l; gsub(/\//, "_", dat)
            printf "%s %s %s %s %s %s %s\n", b, val(r, "rate"), val(r, "ci_low"), val(r, "ci_high"), val(r, "formula"), val(r, "scheme_exact"), val(r, "rate_times_m") > (plotdir "/" name "-" m "-" dat ".dat")
        }
    }
    if (plotdir != "") {
        for (i = 1; i <= nm; i++) printf "%s\n", msize[i] > (plotdir "/" name ".blocks")
        for (j = 1; j <= nl; j++) { dat = lname[j]; gsub(/\//, "_", dat); printf "%s\n", dat > (plotdir "/" name ".series") }
    }
    for (i = 1; i <= nm; i++) {
        m = msize[i]
        printf "\n**%s-bit filter: each scheme's rate over the formula** (measured ± one standard error [exact ÷ formula])\n\n", comma(m)
        line = "| bits per key |"; sep = "|---|"
        for (j = 1; j <= nl; j++) { line = line " " lname[j] " |"; sep = sep "---|" }
        print line; print sep
        for (r = 1; r <= nbm[m]; r++) {
            b = bat[m, r]; line = "| " b " |"
            for (j = 1; j <= nl; j++) line = line " " ((m, b, lname[j]) in cell ? cell[m, b, lname[j]] : "") " |"
            print line
        }
    }
    last = ""
    for (r = 1; r <= nrow; r++) {
        if (val(r, "design_keys") == "") continue
        if (last == "" || val(r, "design_rate") + 0 >= last + 0 || label(r) != lastl) {
            printf "\n**Designs for %s keys, %s** (measured ± one standard error)\n\n", comma(val(r, "design_keys")), label(r)
            print "| target | bits per key | k | measured rate | ÷ target | exact rate | exact ÷ target |"
            print "|---|---|---|---|---|---|---|"
        }
        last = val(r, "design_rate"); lastl = label(r)
        printf "| %g | %.4g | %s | %s | %s | %.4g | %.3f |\n", val(r, "design_rate"), val(r, "bits_per_key"), val(r, "k"), pm(val(r, "rate"), val(r, "stderr")), pm(val(r, "rate_over_design"), val(r, "rate_over_design") * val(r, "stderr") / (val(r, "rate") > 0 ? val(r, "rate") : 1)), val(r, "scheme_exact"), val(r, "scheme_exact") / val(r, "design_rate")
    }
}

# ---- points with a model ----
function model_tables(    r, key, lastkey, sc, unit) {
    lastkey = ""
    for (r = 1; r <= nrow; r++) {
        key = val(r, "m") SUBSEP val(r, "n") SUBSEP val(r, "k")
        if (key != lastkey) {
            # Rates in percent, or per million below 1 in 10,000.
            sc = val(r, "formula") < 1e-4 ? 1e6 : 100; unit = sc == 100 ? "%" : " ppm"
            printf "\n**%s bits, %s keys (%s bits per key), k = %s%s** (± one standard error; %s filters of %s lookups%s)\n\n", comma(val(r, "m")), comma(val(r, "n")), sprintf("%.4g", val(r, "bits_per_key")), val(r, "k"), val(r, "design_keys") != "" ? sprintf(", designed for %s keys at %g", comma(val(r, "design_keys")), val(r, "design_rate")) : "", val(r, "filters"), comma(val(r, "lookups") / val(r, "filters")), sc == 100 ? "" : "; ppm: per million"
            print "| scheme | rate | formula | rate ÷ formula | model | rate ÷ model |"
            print "|---|---|---|---|---|---|"
            lastkey = key
        }
        printf "| %s | %s%s | %.4g%s | %s | %s | %s |\n", val(r, "scheme"), pm(sc * val(r, "rate"), sc * val(r, "stderr")), unit, sc * val(r, "formula"), unit, pm(val(r, "ratio_formula"), val(r, "ratio_formula") * val(r, "stderr") / (val(r, "rate") > 0 ? val(r, "rate") : 1)), val(r, "model") != "" ? sprintf("%.4g%s", sc * val(r, "model"), unit) : "", val(r, "ratio_model") != "" ? pm(val(r, "ratio_model"), val(r, "ratio_model") * val(r, "stderr") / (val(r, "rate") > 0 ? val(r, "rate") : 1)) : ""
    }
}

# ---- plain sweeps ----
function plain_tables(    r, first, b, s, lastb, i, j, dat, line, sep) {
    # A point starts at each row of the first scheme; a new filter size starts where bits
    # per key stops increasing. A size is labelled by the largest m of its first point
    # (schemes that round the size, prime or slices, only ever use fewer bits).
    first = val(1, "scheme")
    lastb = ""
    for (r = 1; r <= nrow; r++) {
        if (val(r, "scheme") == first) {
            if (lastb == "" || val(r, "bits_per_key") + 0 <= lastb + 0) { nb++; bsize[nb] = 0; bpts[nb] = 0 }
            lastb = val(r, "bits_per_key")
            bpts[nb]++
            pt_b[nb, bpts[nb]] = val(r, "bits_per_key"); pt_k[nb, bpts[nb]] = val(r, "k"); pt_f[nb, bpts[nb]] = val(r, "formula")
            pt_x[nb, bpts[nb]] = val(r, "exact")
        }
        if (bpts[nb] == 1 && val(r, "m") + 0 > bsize[nb]) bsize[nb] = val(r, "m") + 0
        blk[r] = nb; blkpt[r] = bpts[nb]
    }
    for (r = 1; r <= nrow; r++) {
        s = val(r, "scheme")
        if (!(s in seen)) { seen[s] = 1; ns++; sname[ns] = s }
        cell[blk[r], blkpt[r], s] = pm(val(r, "ratio_formula"), val(r, "ratio_formula") * val(r, "stderr") / (val(r, "rate") > 0 ? val(r, "rate") : 1))
        if (val(r, "rate") + 0 == 0) cell[blk[r], blkpt[r], s] = "0 (none seen)"
        if (plotdir != "") {
            dat = plotdir "/" name "-" bsize[blk[r]] "-" s ".dat"
            printf "%s %s %s %s %s %s %s\n", val(r, "bits_per_key"), val(r, "rate"), val(r, "ci_low"), val(r, "ci_high"), val(r, "formula"), val(r, "exact"), val(r, "rate_times_m") > dat
        }
    }
    for (i = 1; i <= nb; i++) {
        printf "\n**%s-bit filter: the formula's promise, and how many times worse each scheme measured** (measured rate ÷ formula, ± one standard error)\n\n", comma(bsize[i])
        line = "| bits per key | k | formula | exact ÷ formula |"
        sep = "|---|---|---|---|"
        for (j = 1; j <= ns; j++) { line = line " " sname[j] " |"; sep = sep "---|" }
        print line; print sep
        for (r = 1; r <= bpts[i]; r++) {
            line = "| " pt_b[i, r] " | " pt_k[i, r] " | " sprintf("%.3g", pt_f[i, r]) " | " sprintf("%.4f", pt_x[i, r] / pt_f[i, r]) " |"
            for (j = 1; j <= ns; j++) line = line " " ((i, r, sname[j]) in cell ? cell[i, r, sname[j]] : "") " |"
            print line
        }
        if (plotdir != "") printf "%s\n", bsize[i] > (plotdir "/" name ".blocks")
    }
    if (plotdir != "") for (j = 1; j <= ns; j++) printf "%s\n", sname[j] > (plotdir "/" name ".series")
}

# ---- designs and stacks ----
function design_tables(    r, p, np, st, k, i, j, line, sep, v, dat, lab) {
    for (r = 1; r <= nrow; r++) {
        p = val(r, "design_rate")
        if (!(p in pseen)) { pseen[p] = 1; np++; prate[np] = p; pkeys[np] = val(r, "design_keys") }
        st = val(r, "first_capacity") == "" ? "single" : "stack " val(r, "first_capacity") "/" val(r, "growth") "/" val(r, "tightening")
        lab = st " " val(r, "scheme")
        if (!(lab in sseen)) { sseen[lab] = 1; ns++; series[ns] = lab; sstack[ns] = val(r, "first_capacity") != "" }
        k = val(r, "n")
        if (!((p, k) in kseen)) { kseen[p, k] = 1; nkeys[p]++; keyat[p, nkeys[p]] = k; loadat[p, k] = val(r, "load") }
        v = pm(100 * val(r, "rate"), 100 * val(r, "stderr")) "%"
        if (val(r, "first_capacity") != "")
            v = v ", " val(r, "layers") (val(r, "layers") == 1 ? " layer, " : " layers, ") sprintf("%.2f", val(r, "bits_ratio")) "× bits"
        else
            v = v " (" sprintf("%.3g", val(r, "rate_over_design")) "× design)"
        cell[p, k, lab] = v
        formula[p, k, st] = val(r, "formula")
        if (plotdir != "") {
            dat = lab
            gsub(/[ \/]/, "_", dat)
            printf "%s %s %s %s %s %s\n", val(r, "load"), val(r, "rate"), val(r, "ci_low"), val(r, "ci_high"), val(r, "formula"), val(r, "n") > (plotdir "/" name "-" p "-" dat ".dat")
        }
    }
    for (i = 1; i <= np; i++) {
        p = prate[i]
        printf "\n**Designed for %s keys at %s%%: false-positive rate by keys inserted** (± one standard error)\n\n", comma(pkeys[i]), 100 * p
        line = "| keys | load |"; sep = "|---|---|"
        for (j = 1; j <= ns; j++) { line = line " " series[j] " |"; sep = sep "---|" }
        print line; print sep
        for (r = 1; r <= nkeys[p]; r++) {
            k = keyat[p, r]
            line = "| " comma(k) " | " sprintf("%.3g", loadat[p, k]) "× |"
            for (j = 1; j <= ns; j++) line = line " " ((p, k, series[j]) in cell ? cell[p, k, series[j]] : "") " |"
            print line
        }
        if (plotdir != "") printf "%s\n", p > (plotdir "/" name ".blocks")
    }
    if (plotdir != "") for (j = 1; j <= ns; j++) { lab = series[j]; gsub(/[ \/]/, "_", lab); printf "%s\n", lab > (plotdir "/" name ".series") }
}

# ---- sweeps of libraries (libraries, library-reports) ----
# One table: a row per library, a column per design (keys and target rate), each cell
# the measured rate over the promise (± one standard error). With libinfo (a TSV of
# bloomsim audit --list --tsv: name, scheme, sizing, hash, version, cause, report), the
# summary "Do real libraries keep their promise?": per library its version, hash width,
# worst measured ÷ promised and where, the cause and the report. Plot data: per target
# rate, measured ÷ promised against keys, a series per library.
function keys_label(k) { return k >= 1e6 && k % 1e6 == 0 ? comma(k / 1e6) " M" : comma(k) }
function library_tables(    r, l, d, i, j, line, sep, f, n, lib, ratio, se, fld) {
    for (r = 1; r <= nrow; r++) {
        l = val(r, "library")
        d = val(r, "design_keys") SUBSEP val(r, "design_rate")
        if (!(l in lseen)) { lseen[l] = 1; nl++; lname[nl] = l }
        if (!(d in dseen)) {
            dseen[d] = 1; nd++; dkey[nd] = d
            dlabel[nd] = keys_label(val(r, "design_keys")) " at " 100 * val(r, "design_rate") "%"
        }
        ratio = val(r, "rate_over_design"); se = val(r, "stderr") / val(r, "design_rate")
        cell[l, d] = pm(ratio, se)
        if (!(l in wr) || ratio + 0 > wr[l] + 0) { wr[l] = ratio; wat[l] = dlabel[dindex(d)]; wse[l] = se }
        if (plotdir != "") {
            f = l; gsub(/[ \/.]/, "_", f)
            printf "%s %s %s %s\n", val(r, "design_keys"), ratio, val(r, "ci_low") / val(r, "design_rate"), val(r, "ci_high") / val(r, "design_rate") > (plotdir "/" name "-" val(r, "design_rate") "-" f ".dat")
            if (!((val(r, "design_rate"), f) in pseen)) { pseen[val(r, "design_rate"), f] = 1; printf "%s\n", f > (plotdir "/" name "-" val(r, "design_rate") ".libs") }
            if (!(val(r, "design_rate") in rseen)) { rseen[val(r, "design_rate")] = 1; printf "%s\n", val(r, "design_rate") > (plotdir "/" name ".librates") }
        }
    }
    if (libinfo != "") {
        while ((getline line < libinfo) > 0) {
            n = split(line, fld, "\t")
            if (n >= 6) { ver[fld[1]] = fld[5]; hash[fld[1]] = fld[4]; cause[fld[1]] = fld[6]; rep[fld[1]] = fld[7] }
        }
        print "\n### Do real libraries keep their promise?\n"
        print "Each library at its own sizing and index arithmetic, with ideal hash words of its width: this measures the arithmetic and the sizing, never the hash function. Worst: the largest measured ÷ promised over the designs below (± one standard error).\n"
        print "| library | version followed | hash | worst measured ÷ promised | where | cause | known report |"
        print "|---|---|---|---|---|---|---|"
        for (i = 1; i <= nl; i++) {
            lib = lname[i]
            printf "| `%s` | %s | %s | %s | %s | %s | %s |\n", lib, ver[lib], hash[lib], pm(wr[lib], wse[lib]), wat[lib], cause[lib], rep[lib] == "" ? "" : rep[lib]
        }
    }
    keyset_table()
    printf "\n**Measured ÷ promised rate by design** (± one standard error)\n\n"
    line = "| library |"; sep = "|---|"
    for (j = 1; j <= nd; j++) { line = line " " dlabel[j] " |"; sep = sep "---|" }
    print line; print sep
    for (i = 1; i <= nl; i++) {
        line = "| `" lname[i] "` |"
        for (j = 1; j <= nd; j++) line = line " " ((lname[i], dkey[j]) in cell ? cell[lname[i], dkey[j]] : "") " |"
        print line
    }
}
# Real keys (issue 22): a row named "LIB; keys KIND ...; hash H" is library LIB fed key
# set KIND through its hash H; a row named LIB alone, ideal hash words. When a sweep has
# both: a row per library and design, the ideal words' rate over the promise, then each
# key set's rate over the ideal words' (± one standard error of the ratio; * where the
# two rates differ by more than 3 standard errors of their difference).
function keyset_table(    r, l, b, k, d, i, j, t, line, sep, a, sa, x, sx, z, ratio) {
    for (r = 1; r <= nrow; r++) {
        l = val(r, "library"); d = val(r, "design_keys") SUBSEP val(r, "design_rate")
        k = "ideal"; b = l
        if ((i = index(l, "; keys ")) > 0) {
            b = substr(l, 1, i - 1); k = substr(l, i + 7); sub(/[ ;].*/, "", k)
            if ((j = index(l, "; hash ")) > 0 && !(b in khash)) khash[b] = substr(l, j + 7)
            real = 1
        }
        if (!(b in kbseen)) { kbseen[b] = 1; nkb++; kb[nkb] = b }
        if (!(k in kkseen)) { kkseen[k] = 1; nkk++; kk[nkk] = k }
        krate[b, d, k] = val(r, "rate"); kse[b, d, k] = val(r, "stderr")
        kdes[b, d, k] = val(r, "design_rate")
    }
    if (!real) return
    printf "\n**Real keys against ideal words**: each key set's rate ÷ the same library's rate on ideal hash words at the same design (± one standard error; * where the two differ by more than 3 standard errors)\n\n"
    line = "| library | hash | design | ideal words ÷ promised |"; sep = "|---|---|---|---|"
    for (t = 1; t <= nkk; t++) if (kk[t] != "ideal") { line = line " " kk[t] " |"; sep = sep "---|" }
    print line; print sep
    for (i = 1; i <= nkb; i++) for (j = 1; j <= nd; j++) {
        b = kb[i]; d = dkey[j]
        if (!((b, d, "ideal") in krate)) continue
        a = krate[b, d, "ideal"]; sa = kse[b, d, "ideal"]
        line = "| `" b "` | " khash[b] " | " dlabel[j] " | " pm(a / kdes[b, d, "ideal"], sa / kdes[b, d, "ideal"]) " |"
        for (t = 1; t <= nkk; t++) {
            if (kk[t] == "ideal") continue
            if (!((b, d, kk[t]) in krate) || a <= 0) { line = line " |"; continue }
            x = krate[b, d, kk[t]]; sx = kse[b, d, kk[t]]
            ratio = x / a
            z = (sa * sa + sx * sx > 0) ? (x - a) / sqrt(sa * sa + sx * sx) : 0
            line = line " " pm(ratio, ratio * sqrt((sa / a) ^ 2 + (x > 0 ? (sx / x) ^ 2 : 0))) (z > 3 || z < -3 ? " *" : "") " |"
        }
        print line
    }
}
function dindex(d,    j) { for (j = 1; j <= nd; j++) if (dkey[j] == d) return j; return 1 }

# ---- fingerprint filters beside the Bloom structures (expandable) ----
# The first sweep (rows until the keys inserted go back down): keys down, a column per
# structure (a Bloom structure with its scheme), the rate in percent (± one standard
# error; the keys refused where a filter refused some), then bits per key with the
# places a lookup consults. Later sweeps: each row against its exact rate. Plot data:
# per structure, keys inserted, rate, interval and bits per key.
# x to n significant digits, trailing zeros kept.
function sig(x, n,    e, d) {
    if (x + 0 <= 0) return "0"
    e = int(log(x) / log(10)); if (x < 10 ^ e) e--
    d = n - 1 - e
    return sprintf("%." (d > 0 ? d : 0) "f", x)
}
function structure_label(r,    st) {
    st = val(r, "structure")
    if (st == "stack") st = "stack " val(r, "first_capacity") "/" val(r, "growth") "/" val(r, "tightening")
    return val(r, "expansions") != "" ? st : st " " val(r, "scheme")
}
function expandable_tables(    r, k, lab, i, j, line, sep, sweep, last, dat, v, z) {
    sweep = 1; last = -1
    for (r = 1; r <= nrow; r++) {
        if (val(r, "n") + 0 < last + 0) sweep++
        last = val(r, "n"); insweep[r] = sweep
        if (sweep > 1) continue
        lab = structure_label(r)
        if (!(lab in sseen)) { sseen[lab] = 1; ns++; series[ns] = lab }
        k = val(r, "n")
        if (!(k in kseen)) { kseen[k] = 1; nk++; keyat[nk] = k; loadat[k] = val(r, "load") }
        v = pm(100 * val(r, "rate"), 100 * val(r, "stderr")) "%"
        if (val(r, "refused") != "" && val(r, "refused") + 0 > 0) v = v " (" comma(val(r, "refused")) " refused)"
        rate[k, lab] = v
        bits[k, lab] = sprintf("%.2f", val(r, "bits_per_key")) " (" sprintf("%.3g", val(r, "places")) ")"
        if (plotdir != "" && !(val(r, "refused") + 0 > 0)) { # a filter refusing keys is not drawn
            dat = lab; gsub(/[ \/]/, "_", dat)
            printf "%s %s %s %s %s\n", k, val(r, "rate"), val(r, "ci_low"), val(r, "ci_high"), val(r, "bits_per_key") > (plotdir "/" name "-x-" dat ".dat")
        }
    }
    printf "\n**Designed for %s keys at %s%%: false-positive rate by keys inserted** (± one standard error)\n\n", comma(val(1, "design_keys")), 100 * val(1, "design_rate")
    line = "| keys | × forecast |"; sep = "|---|---|"
    for (j = 1; j <= ns; j++) { line = line " " series[j] " |"; sep = sep "---|" }
    print line; print sep
    for (i = 1; i <= nk; i++) {
        k = keyat[i]; line = "| " comma(k) " | " sprintf("%.3g", loadat[k]) " |"
        for (j = 1; j <= ns; j++) line = line " " ((k, series[j]) in rate ? rate[k, series[j]] : "") " |"
        print line
    }
    printf "\n**Bits per key, with the places a lookup of an absent key consults** (metadata, extension slots and secondary tables counted)\n\n"
    line = "| keys | × forecast |"
    for (j = 1; j <= ns; j++) line = line " " series[j] " |"
    print line; print sep
    for (i = 1; i <= nk; i++) {
        k = keyat[i]; line = "| " comma(k) " | " sprintf("%.3g", loadat[k]) " |"
        for (j = 1; j <= ns; j++) line = line " " ((k, series[j]) in bits ? bits[k, series[j]] : "") " |"
        print line
    }
    if (sweep > 1) {
        printf "\n**Measured against the exact rate** (later sweeps: each row's estimator against the structure's exact rate, ± one standard error)\n\n"
        print "| structure | keys | estimator | filters | rate | exact | z |"
        print "|---|---|---|---|---|---|---|"
        for (r = 1; r <= nrow; r++) {
            if (insweep[r] == 1) continue
            z = val(r, "z_exact") == "" ? "" : sprintf("%+.2f", val(r, "z_exact"))
            printf "| %s | %s | %s | %s | %s%% | %s | %s |\n", structure_label(r), comma(val(r, "n")), val(r, "estimator"), val(r, "filters"), pm(100 * val(r, "rate"), 100 * val(r, "stderr")), val(r, "exact") == "" ? "(keys refused)" : sig(100 * val(r, "exact"), 4) "%", z
        }
    }
    if (plotdir != "") {
        printf "x\n" > (plotdir "/" name ".expandable")
        for (j = 1; j <= ns; j++) { lab = series[j]; gsub(/[ \/]/, "_", lab); printf "%s\n", lab > (plotdir "/" name ".series") }
    }
}
