# report.awk - one experiment's CSV (bloomsim's columns, README.md) to Markdown tables in
# the seeds' form, and the data files gnuplot draws. Variables: name (experiment),
# plotdir (where to write NAME-*.dat; empty for no data files).
#
# Plain sweeps: one table per filter size, bits per key down the side, schemes across,
# each cell the ratio of the measured rate to the formula with its standard error.
# Designs and stacks: one table per design rate, keys inserted down the side, each
# structure and scheme across, each cell the rate in percent with its standard error.
# Experiments with a model column (guava, hash32: a few big points, several sweeps): one
# table per point, a row per scheme, the rate beside the formula and the model.

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

BEGIN { FS = "," }
NR == 1 { next }
{
    sub(/\r$/, "")
    nrow++
    for (i = 1; i <= NF; i++) c[nrow, i] = $i
}

END {
    for (r = 1; r <= nrow; r++) if (c[r, 42] != "") modelled = 1
    design = c[1, 25] != ""
    if (modelled) model_tables(); else if (!design) plain_tables(); else design_tables()
}

# ---- points with a model ----
function model_tables(    r, key, lastkey, sc, unit) {
    lastkey = ""
    for (r = 1; r <= nrow; r++) {
        key = c[r, 3] SUBSEP c[r, 4] SUBSEP c[r, 5]
        if (key != lastkey) {
            # Rates in percent, or per million below 1 in 10,000.
            sc = c[r, 15] < 1e-4 ? 1e6 : 100; unit = sc == 100 ? "%" : " ppm"
            printf "\n**%s bits, %s keys (%s bits per key), k = %s%s** (± one standard error; %s filters of %s lookups%s)\n\n", comma(c[r, 3]), comma(c[r, 4]), sprintf("%.4g", c[r, 6]), c[r, 5], c[r, 25] != "" ? sprintf(", designed for %s keys at %g", comma(c[r, 25]), c[r, 26]) : "", c[r, 8], comma(c[r, 9] / c[r, 8]), sc == 100 ? "" : "; ppm: per million"
            print "| scheme | rate | formula | rate ÷ formula | model | rate ÷ model |"
            print "|---|---|---|---|---|---|"
            lastkey = key
        }
        printf "| %s | %s%s | %.4g%s | %s | %s | %s |\n", c[r, 2], pm(sc * c[r, 11], sc * c[r, 12]), unit, sc * c[r, 15], unit, pm(c[r, 19], c[r, 19] * c[r, 12] / (c[r, 11] > 0 ? c[r, 11] : 1)), c[r, 42] != "" ? sprintf("%.4g%s", sc * c[r, 42], unit) : "", c[r, 43] != "" ? pm(c[r, 43], c[r, 43] * c[r, 12] / (c[r, 11] > 0 ? c[r, 11] : 1)) : ""
    }
}

# ---- plain sweeps ----
function plain_tables(    r, first, b, s, lastb, i, j, dat, line, sep) {
    # A point starts at each row of the first scheme; a new filter size starts where bits
    # per key stops increasing. A size is labelled by the largest m of its first point
    # (schemes that round the size, prime or slices, only ever use fewer bits).
    first = c[1, 2]
    lastb = ""
    for (r = 1; r <= nrow; r++) {
        if (c[r, 2] == first) {
            if (lastb == "" || c[r, 6] + 0 <= lastb + 0) { nb++; bsize[nb] = 0; bpts[nb] = 0 }
            lastb = c[r, 6]
            bpts[nb]++
            pt_b[nb, bpts[nb]] = c[r, 6]; pt_k[nb, bpts[nb]] = c[r, 5]; pt_f[nb, bpts[nb]] = c[r, 15]
            pt_x[nb, bpts[nb]] = c[r, 17]
        }
        if (bpts[nb] == 1 && c[r, 3] + 0 > bsize[nb]) bsize[nb] = c[r, 3] + 0
        blk[r] = nb; blkpt[r] = bpts[nb]
    }
    for (r = 1; r <= nrow; r++) {
        s = c[r, 2]
        if (!(s in seen)) { seen[s] = 1; ns++; sname[ns] = s }
        cell[blk[r], blkpt[r], s] = pm(c[r, 19], c[r, 19] * c[r, 12] / (c[r, 11] > 0 ? c[r, 11] : 1))
        if (c[r, 11] + 0 == 0) cell[blk[r], blkpt[r], s] = "0 (none seen)"
        if (plotdir != "") {
            dat = plotdir "/" name "-" bsize[blk[r]] "-" s ".dat"
            printf "%s %s %s %s %s %s %s\n", c[r, 6], c[r, 11], c[r, 13], c[r, 14], c[r, 15], c[r, 17], c[r, 22] > dat
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
        p = c[r, 26]
        if (!(p in pseen)) { pseen[p] = 1; np++; prate[np] = p; pkeys[np] = c[r, 25] }
        st = c[r, 33] == "" ? "single" : "stack " c[r, 33] "/" c[r, 34] "/" c[r, 35]
        lab = st " " c[r, 2]
        if (!(lab in sseen)) { sseen[lab] = 1; ns++; series[ns] = lab; sstack[ns] = c[r, 33] != "" }
        k = c[r, 4]
        if (!((p, k) in kseen)) { kseen[p, k] = 1; nkeys[p]++; keyat[p, nkeys[p]] = k; loadat[p, k] = c[r, 27] }
        v = pm(100 * c[r, 11], 100 * c[r, 12]) "%"
        if (c[r, 33] != "")
            v = v ", " c[r, 36] (c[r, 36] == 1 ? " layer, " : " layers, ") sprintf("%.2f", c[r, 39]) "× bits"
        else
            v = v " (" sprintf("%.3g", c[r, 32]) "× design)"
        cell[p, k, lab] = v
        formula[p, k, st] = c[r, 15]
        if (plotdir != "") {
            dat = lab
            gsub(/[ \/]/, "_", dat)
            printf "%s %s %s %s %s %s\n", c[r, 27], c[r, 11], c[r, 13], c[r, 14], c[r, 15], c[r, 4] > (plotdir "/" name "-" p "-" dat ".dat")
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
