#!/usr/bin/env bash
# Runs dtrace-utils' unit tests (test/unittest/AREA/...) against dtpp and judges them the way
# dtrace-utils' own harness (runtest.sh) does. See docs/conformance.md.
#
#   scripts/conformance.sh [-d DTPP] [-o RESULTS] [-t SECONDS] [-k] DTU_DIR AREA...
#
# DTU_DIR is a dtrace-utils checkout (or its test/unittest directory); AREA names a directory
# under test/unittest (aggs, printf, actions/printf ...) or one test (aggs/tst.max.d). One line
# per test, then totals.
# Tests whose programs use probes other than BEGIN, END, ERROR, tick-N and profile-N are
# skipped as SKIP(probe); with -k those using syscall, tracepoint, sched, proc or io probes run too (they need
# root) and are counted apart.

shopt -s nullglob extglob
unset CDPATH POSIXLY_CORRECT

usage() {
    cat <<'EOF'
usage: scripts/conformance.sh [-d DTPP] [-o RESULTS] [-t SECONDS] [-k] DTU_DIR AREA...
  -d DTPP     the dtpp binary (default build/tools/dtpp)
  -o RESULTS  where to keep outputs and diffs (default build/conformance)
  -t SECONDS  per-test timeout, raised by a test's @@timeout (default 10)
  -k          also run tests using syscall/tracepoint/sched/proc/io probes (kernel engine, needs root)
  DTU_DIR     a dtrace-utils checkout (branch devel), or its test/unittest directory
  AREA        a directory under test/unittest: aggs, printf, actions/printf, ...; or demo
              (test/demo, the DTrace Guide's examples); or one test: aggs/tst.max.d
EOF
    exit 2
}

dtpp_bin=build/tools/dtpp
results=build/conformance
base_timeout=10
run_kernel=
while getopts d:o:t:kh opt; do
    case $opt in
        d) dtpp_bin=$OPTARG ;;
        o) results=$OPTARG ;;
        t) base_timeout=$OPTARG ;;
        k) run_kernel=t ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 ]] || usage
if ! command -v gawk > /dev/null || ! command -v timeout > /dev/null; then
    echo "conformance.sh: needs gawk and timeout (apt-get install gawk coreutils)" >&2
    exit 2
fi

[[ -d $dtpp_bin ]] && dtpp_bin=$dtpp_bin/dtpp
if [[ ! -x $dtpp_bin ]]; then
    echo "conformance.sh: $dtpp_bin is not an executable" >&2
    exit 2
fi
dtpp_bin=$(realpath "$dtpp_bin")

root=$(realpath "$1")
shift
[[ -d $root/test/unittest ]] || root=$(realpath "$root/../..")
if [[ ! -d $root/test/unittest ]]; then
    echo "conformance.sh: no test/unittest under $1" >&2
    exit 2
fi

mkdir -p "$results" || exit 2
results=$(realpath "$results")
rm -rf "${results:?}"/{tests,summary.txt,results.tsv}
mkdir -p "$results/tests"

arch=$(uname -m)
work=$(mktemp -d "${TMPDIR:-/tmp}/conformance.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

# Tests compare against dtrace(1)'s messages, which start with the name it was run by.
mkdir "$work/bin"
ln -s "$dtpp_bin" "$work/bin/dtrace"
dt=$work/bin/dtrace

# The environment runtest.sh gives dtrace and the tests' own scripts.
export _DTRACE_TESTING=t LANGUAGE=C LC_COLLATE=C
export dtrace=$dt tmpdir=$work/tmp
mkdir "$tmpdir"
ulimit -l $((256 * 1024 * 1024)) 2>/dev/null
if ! cpp -x c -fno-diagnostics-show-caret - </dev/null 2>&1 | grep -q 'unrecognized command line option'; then
    export DTRACE_OPT_CPPARGS="-fno-diagnostics-show-caret -fdiagnostics-color=never -fno-diagnostics-show-option -fno-show-column"
fi
cppflags="-DARCH_$arch"

cd "$root" || exit 2

# --- Directives -----------------------------------------------------------------------------
# A directive @@NAME lives in the test file or in a test.options (test.ARCH.options) file of
# any directory between the test and the top of the tree.

# The files consulted for a directive, nearest first.
option_files() {
    local path=$1
    echo "$path"
    while :; do
        path=$(dirname "$path")
        [[ $path == . || $path == / ]] && break
        if [[ -e $path/test.$arch.options ]]; then
            echo "$path/test.$arch.options"
        else
            echo "$path/test.options"
        fi
    done
}

# has_option NAME TEST: true if any of those files mentions @@NAME.
has_option() {
    local f
    while read -r f; do
        [[ -f $f ]] && grep -Eq "@@$1" "$f" && return 0
    done < <(option_files "$2")
    return 1
}

# get_option NAME TEST [EXPAND [ACCUMULATE]]: the value of @@NAME from the nearest file that
# has one (from all of them with ACCUMULATE), shell-expanded once with EXPAND.
get_option() {
    local name=$1 test=$2 expand=$3 accumulate=$4 f val=
    while read -r f; do
        if [[ -f $f ]] && grep -Eq -e "@@$name *:" -e "@@$name " -e "@@$name\$" "$f"; then
            val+=$(grep -E -e "@@$name *:" -e "@@$name " -e "@@$name\$" "$f" |
                   sed "s,.*@@$name *: ,,; s,\*/\$,,; s,  *\$,,")
            [[ -n $accumulate ]] && val+=" "
            [[ -z $accumulate ]] && break
        fi
    done < <(option_files "$test")
    [[ -z $val ]] && return
    if [[ -n $expand ]]; then
        local _pid='$_pid'
        eval printf "%s" \""$val"\"
    else
        printf "%s" "$val"
    fi
}

# --- Which probes a test uses ---------------------------------------------------------------
# Prints "core" (only BEGIN, END, ERROR, tick-N, profile-N), "kernel LIST" (also syscall,
# tracepoint, sched, proc or io probes) or "other LIST". For a .d file the clause headings are read (comments,
# strings and preprocessor lines dropped, brace depth followed); for a shell script every
# probe-description-looking word counts.
classify_probes() {
    gawk -v mode="$1" '
    function note(d,   n, f, name, prov, rest) {
        gsub(/[ \t\r\n]+/, "", d)
        if (d == "") return
        n = split(d, f, ":")
        name = f[n]
        prov = (n == 4) ? f[1] : ""
        rest = (n == 4) ? f[2] f[3] : (n == 3) ? f[1] f[2] : (n == 2) ? f[1] : ""
        if (rest == "" && (prov == "" || prov == "dtrace") && name ~ /^(BEGIN|END|ERROR)$/) { core = 1; return }
        if (rest == "" && (prov == "" || prov == "profile") && name ~ /^(tick|profile)-/) { core = 1; return }
        if (prov ~ /^(syscall|tracepoint|sched|proc|io)$/) { kern[prov] = 1; return }
        sub(/[\\$0-9*].*$/, "", prov)
        other[prov != "" ? prov : d] = 1
    }
    function heading(h,   p, n, i, parts) {
        p = index(h, "/")
        if (p) h = substr(h, 1, p - 1)
        if (h ~ /^[ \t\r\n]*((self|this)[ \t\r\n]+)?(struct|union|enum|translator|typedef|inline|provider)[ \t\r\n]/) return
        n = split(h, parts, ",")
        for (i = 1; i <= n; i++) note(parts[i])
    }
    function list(a,   k, s) { s = ""; for (k in a) s = s (s == "" ? "" : ",") k; return s }
    BEGIN { RS = "^$" }
    mode == "d" {
        s = $0; n = length(s); depth = 0; h = ""; bol = 1
        for (i = 1; i <= n; i++) {
            c = substr(s, i, 1)
            if (c == "\n") { bol = 1; if (!depth) h = h " "; continue }
            if (bol && (c == " " || c == "\t")) continue
            if (bol && c == "#") { j = index(substr(s, i), "\n"); if (!j) break; i += j - 2; bol = 0; continue }
            bol = 0
            if (c == "/" && substr(s, i + 1, 1) == "*") {
                j = index(substr(s, i + 2), "*/"); if (!j) break
                i += j + 2; if (!depth) h = h " "; continue
            }
            if (c == "/" && substr(s, i + 1, 1) == "/") { j = index(substr(s, i), "\n"); if (!j) break; i += j - 2; continue }
            if (c == "\"" || c == "'\''") {
                for (i++; i <= n && substr(s, i, 1) != c; i++) if (substr(s, i, 1) == "\\") i++
                continue
            }
            if (c == "{") { if (!depth) { heading(h); h = "" } depth++; continue }
            if (c == "}") { if (depth) depth--; if (!depth) h = ""; continue }
            if (c == ";" && !depth) { h = ""; continue }
            if (!depth) h = h c
        }
    }
    mode == "sh" {
        s = ""
        n = split($0, lines, "\n")
        for (i = 1; i <= n; i++) if (lines[i] !~ /^[ \t]*#([^p]|$)/) s = s lines[i] "\n"
        t = s
        while (match(t, /[A-Za-z0-9_$*\\-]*:[A-Za-z0-9_$*.\\-]*:[A-Za-z0-9_$*.\\-]*:[A-Za-z0-9_$*.\\-]+/)) {
            note(substr(t, RSTART, RLENGTH)); t = substr(t, RSTART + RLENGTH)
        }
        if (s ~ /(^|[^A-Za-z0-9_])(BEGIN|END|ERROR)([^A-Za-z0-9_]|$)/ || s ~ /(^|[^A-Za-z0-9_:-])(tick|profile)-[0-9$'\'']/) core = 1
    }
    END {
        if (length(other)) print "other " list(other) (length(kern) ? "," list(kern) : "")
        else if (length(kern)) print "kernel " list(kern)
        else if (core) print "core"
        else print "core none-found"  # the command line alone: options, -i ids, -V ...
    }' "$2"
}

# --- Results --------------------------------------------------------------------------------
declare -A count
areas_seen=()
any_fail=

# report AREA CLASS RESULT TEST [DETAIL]
report() {
    local area=$1 class=$2 result=$3 test=$4 detail=$5 kind=${3%%(*}
    local shown=${test#test/unittest/}
    shown=${shown#test/}  # test/demo/...
    printf '%-20s %-6s %s%s\n' "$result" "$class" "$shown" "${detail:+: $detail}" |
        tee -a "$results/summary.txt"
    printf '%s\t%s\t%s\t%s\t%s\n' "$shown" "$class" "$kind" "$result" "$detail" >> "$results/results.tsv"
    count[$area|$class|$kind]=$(( ${count[$area|$class|$kind]:-0} + 1 ))
    [[ $kind == FAIL ]] && any_fail=t
}

# Reduce test output the way runtest.sh does: the test's own .r.p filter, then hex numbers
# become {ptr} and BPF pcs NNN. Fails when the filter fails (the raw output is kept then).
postprocess() {
    local filter=$1 in=$2 out=$3 rc=0
    cp -f "$in" "$work/pp.out"
    if [[ -x $filter ]]; then
        if "./$filter" < "$in" > "$work/pp.post"; then
            mv -f "$work/pp.post" "$work/pp.out"
        else
            rc=$?
        fi
    fi
    sed -e '/^==[0-9][0-9]*== /!s,0x[0-9a-f][0-9a-f]*,{ptr},g' \
        -e 's,at BPF pc [1-9][0-9]*,at BPF pc NNN,' < "$work/pp.out" > "$out"
    return $rc
}

# Tags given by the user (test/tags.default, test/tags.ARCH.default, $TEST_TAGS): a test must
# carry every plain tag and none of the !tags.
user_tags="$(cat test/tags.default test/tags.$arch.default 2>/dev/null) ${TEST_TAGS:-}"
run_tags=$(printf '%s\n' $user_tags | grep -v '^!' | sort -u)
skip_tags=$(printf '%s\n' $user_tags | grep '^!' | sed 's/^!//' | sort -u)

# --- One test -------------------------------------------------------------------------------
run_test() {
    local area=$1 _test=$2
    local base=${_test%.@(d|sh|c)} testonly=${_test##*/} out
    out=${_test#test/unittest/}
    out=$results/tests/${out#test/}
    mkdir -p "$(dirname "$out")"

    # Which engine the program needs.
    local class probes probe_src=$_test mode=d
    [[ $_test == *.sh ]] && mode=sh
    [[ $_test == *.c ]] && { report "$area" other "SKIP(c-program)" "$_test" "C test programs link libdtrace"; return; }
    read -r class probes < <(classify_probes $mode "$probe_src")
    # err.D_PDESC_ZERO tests name probes that must match nothing; they are compile-time tests.
    [[ $testonly == err.D_PDESC_ZERO.* ]] && class=core probes=

    if has_option skip "$_test"; then
        report "$area" "$class" "SKIP(@@skip)" "$_test" "$(get_option skip "$_test")"
        return
    fi

    if [[ -n $run_tags$skip_tags ]]; then
        local test_tags shrink=$_test
        test_tags="$(get_option tags "$_test" "" t)"
        while shrink=${shrink%/*}; [[ $shrink == */* ]]; do test_tags+=" $shrink"; done
        test_tags=$(printf '%s\n' $test_tags | sort -u)
        local missing excluded
        missing=$(comm -23 <(echo "$run_tags" | sed '/^$/d') <(echo "$test_tags") | xargs)
        excluded=$(comm -12 <(echo "$skip_tags" | sed '/^$/d') <(echo "$test_tags") | xargs)
        [[ -n $missing ]] && { report "$area" "$class" "SKIP(tags)" "$_test" "lacks $missing"; return; }
        [[ -n $excluded ]] && { report "$area" "$class" "SKIP(tags)" "$_test" "has $excluded"; return; }
    fi

    local timeout=$base_timeout t
    if has_option timeout "$_test"; then
        t=$(get_option timeout "$_test")
        [[ $t =~ ^[0-9]+$ ]] && (( t > timeout )) && timeout=$t
    fi

    # Expected failure: @@xfail, or .x programs (the test's, then test.x up the tree), the
    # highest answer winning: 0 pass, 1 xfail, 2 skip.
    local xfail=0 xfailmsg= xbase=$base xpath=$_test xfile msg rc
    if has_option xfail "$_test" && ! has_option no-xfail "$_test"; then
        xfail=1
        xfailmsg=$(get_option xfail "$_test" | sed 's, *$,,')
    fi
    while (( xfail < 2 )); do
        xfile=$xbase.$arch.x
        [[ -e $xfile ]] || xfile=$xbase.x
        if [[ -x $xfile ]]; then
            msg=$("./$xfile"); rc=$?
            (( rc > 2 )) && rc=2
            (( rc > xfail )) && { xfail=$rc; xfailmsg=$msg; }
        elif [[ -e $xfile ]] && (( xfail == 0 )); then
            xfail=1
        fi
        xpath=$(dirname "$xpath")
        [[ $xpath == . ]] && break
        xbase=$xpath/test
        [[ -e $xpath/test.$arch.x ]] && xbase=$xpath/test.$arch
    done
    if (( xfail == 2 )); then
        report "$area" "$class" "SKIP(.x)" "$_test" "$xfailmsg"
        return
    fi
    (( xfail == 1 )) && xfail=t || xfail=

    if [[ $class == other ]]; then
        report "$area" other "SKIP(probe)" "$_test" "$probes"
        return
    fi
    if [[ $class == kernel && -z $run_kernel ]]; then
        report "$area" kernel "SKIP(kernel)" "$_test" "$probes (run with -k)"
        return
    fi

    # Triggers: tst.*, err.* and drp.* run without one; @@trigger names a program of
    # test/triggers (most are C programs that dtrace-utils' build compiles); a .t file wins.
    local trigger=
    [[ $testonly =~ ^(tst|err|drp)\. ]] && trigger=none
    has_option trigger "$_test" && trigger=$(get_option trigger "$_test" t)
    if [[ -n $trigger && $trigger != none ]]; then
        if [[ ! -x test/triggers/${trigger%% *} ]]; then
            report "$area" "$class" "SKIP(trigger)" "$_test" "test/triggers/${trigger%% *} is built by dtrace-utils"
            return
        fi
        trigger=test/triggers/$trigger
    fi
    [[ -x $base.t ]] && trigger=$base.t

    # Shell tests that need programs dtrace-utils' build makes.
    if [[ $_test == *.sh ]] && grep -Eq 'test/triggers/|workload_|\bgcc\b|\$\{?CC\b' "$_test"; then
        report "$area" "$class" "SKIP(build)" "$_test" "needs a program built by dtrace-utils"
        return
    fi

    local expected_exitcode=0 expected_tag= raw_flags=$cppflags
    [[ $testonly =~ ^err\. ]] && expected_exitcode=1
    if [[ $testonly =~ ^err\.D_ ]]; then
        raw_flags+=" -xerrtags"
        expected_tag=$(sed 's,^err\.,,; s,\..*$,,' <<< "$testonly")
    elif [[ $testonly =~ ^drp\. ]]; then
        raw_flags+=" -xdroptags"
        expected_tag=$(sed 's,^drp\.,,; s,\..*$,,' <<< "$testonly")
    fi
    local dt_flags="$raw_flags -s $_test" opts
    if has_option runtest-opts "$_test"; then
        opts=$(get_option runtest-opts "$_test" t)
        [[ -n $opts ]] && { dt_flags+=" $opts"; raw_flags+=" $opts"; }
    fi

    # How to run it: an interpreter file (#!dtrace) runs itself, an executable .sh runs with
    # dtrace's path as its argument, anything else is dtrace -s.
    local progtype=d run=$dt interp=
    if [[ -e $base.d && $(gawk '{print $1; exit}' "$base.d") == '#!dtrace' ]]; then
        interp=$work/test.interpreter.$RANDOM.d
        sed "s:^#!dtrace :#!$dt :" "$base.d" > "$interp"
        chmod +x "$interp"
        progtype=shell
        run="$interp $raw_flags"
    elif [[ -x $base.sh ]]; then
        progtype=shell
        run="$base.sh $dt"
        [[ -z $trigger ]] && trigger=none
        dt_flags=$raw_flags
    fi

    local reinvoke=0 attempts=0
    has_option reinvoke-failure "$_test" && reinvoke=$(get_option reinvoke-failure "$_test")
    [[ $reinvoke =~ ^[0-9]+$ ]] || reinvoke=0

    local fail failmsg exitcode noexec stdout=$work/stdout stderr=$work/stderr final=$work/final
    local orig_flags=$dt_flags tag_missing rfile sortcmd
    export _test tst=$base timeout dt_flags _pid=
    while (( reinvoke >= 0 )); do
        fail= failmsg= noexec= tag_missing=$expected_tag
        dt_flags=$orig_flags
        set -f
        if [[ -z $trigger || $trigger == none ]]; then
            local eflag=
            [[ -z $trigger && $progtype == d ]] && { eflag=-e; noexec=t; }
            if [[ $progtype == d ]]; then
                echo "$run $dt_flags $eflag" > "$out.cmd"
                timeout --signal=TERM --kill-after=5 "$timeout" $run $dt_flags $eflag > "$stdout" 2> "$stderr"
            else
                echo "$run  (dt_flags=$dt_flags)" > "$out.cmd"
                timeout --signal=TERM --kill-after=5 "$timeout" $run > "$stdout" 2> "$stderr"
            fi
            exitcode=$?
        else
            # A trigger: by default given to dtrace with -c; @@trigger-timing before, after
            # or a delay in seconds starts it apart, its pid as $_pid.
            local timing=synchro delay= tpid=
            if has_option trigger-timing "$_test"; then
                timing=$(get_option trigger-timing "$_test")
                case $timing in after) delay=1 ;; before|synchro) ;; *) delay=$timing ;; esac
            fi
            if [[ $timing == synchro ]]; then
                echo "$run $dt_flags -c $trigger" > "$out.cmd"
                if [[ $progtype == d ]]; then
                    timeout --signal=TERM --kill-after=5 "$timeout" $run $dt_flags -c "$trigger" > "$stdout" 2> "$stderr"
                else
                    timeout --signal=TERM --kill-after=5 "$timeout" $run > "$stdout" 2> "$stderr"
                fi
                exitcode=$?
            else
                ( [[ -n $delay ]] && sleep "$delay"; exec $trigger ) &
                tpid=$!
                _pid=$tpid
                dt_flags=$(sed 's,\$_pid\([^a-zA-Z]\),'"$tpid"'\1,g; s,\$_pid$,'"$tpid"',g' <<< "$dt_flags")
                echo "$run $dt_flags  (trigger $trigger, pid $tpid)" > "$out.cmd"
                timeout --signal=TERM --kill-after=5 "$timeout" $run $dt_flags > "$stdout" 2> "$stderr"
                exitcode=$?
                kill "$tpid" 2>/dev/null
                wait "$tpid" 2>/dev/null
                _pid=
            fi
        fi
        set +f
        (( exitcode == 137 )) && exitcode=124
        echo "$exitcode" > "$out.rc"

        if [[ -n $interp ]]; then
            sed -i "s:$interp:$base.d:" "$stdout" "$stderr"
        fi
        grep -vE '^[a-z_]+ DEBUG [0-9]+: ' "$stderr" |
            sed 's/Invalid member name/Member name not found/' > "$stderr.tmp"
        mv -f "$stderr.tmp" "$stderr"

        if grep -q "Cannot allocate memory" "$stdout" "$stderr"; then
            xfailmsg="out of memory"
            (( expected_exitcode == 0 )) && xfail=t
        fi
        if grep -q "Abort due to systemic unresponsiveness" "$stderr" &&
           [[ -n $(get_option deadman-success "$_test") ]]; then
            (( expected_exitcode == 0 )) && xfail=t
        fi
        if [[ -n $tag_missing ]] && grep -q "\[$tag_missing\]" "$stderr"; then
            tag_missing=
        fi

        if [[ -s $stderr ]]; then
            echo "-- @@stderr --" >> "$stdout"
            cat "$stderr" >> "$stdout"
        fi
        if ! postprocess "$base.r.p" "$stdout" "$final"; then
            fail=t
            failmsg="results postprocessor failed"
        fi
        cp -f "$final" "$out.out"

        sortcmd=sort
        has_option nosort "$_test" && sortcmd=cat
        rfile=$base.$arch.r
        [[ -e $rfile ]] || rfile=$base.r
        rm -f "$out.diff" "$out.unsorted.diff" "$out.expected"
        if [[ -e $rfile ]] && ! diff -u <(LC_ALL=C $sortcmd "$rfile") <(LC_ALL=C $sortcmd "$final") > /dev/null; then
            fail=t
            failmsg="expected results differ"
            cp -f "$rfile" "$out.expected"
            diff -u --label "$rfile" --label actual <(LC_ALL=C $sortcmd "$rfile") \
                <(LC_ALL=C $sortcmd "$final") > "$out.diff"
            [[ $sortcmd == sort ]] && diff -u --label "$rfile" --label actual "$rfile" "$final" > "$out.unsorted.diff"
        fi

        if [[ -f core ]]; then
            mv -f core "$out.core"
            fail=t; failmsg="core dumped"
        elif [[ -n $tag_missing ]]; then
            fail=t; failmsg="expected tag $tag_missing"
            reinvoke=-1
        elif (( exitcode == 124 )) && [[ -z $(get_option timeout-success "$_test") ]]; then
            fail=t; failmsg="timed out"
        elif (( exitcode == 67 )); then
            (( expected_exitcode == 1 )) && fail=t
            xfail=t; failmsg="requested by test"
        elif (( exitcode != expected_exitcode && exitcode != 124 )); then
            fail=t
            if (( exitcode < 129 || exitcode > 193 )); then
                failmsg="erroneous exitcode ($exitcode)"
            else
                failmsg="hit by signal $((exitcode - 128))"
            fi
        fi

        reinvoke=$((reinvoke - 1))
        [[ -z $fail ]] && reinvoke=-1
        [[ -n $fail ]] && (( reinvoke >= 0 )) && attempts=$((attempts + 1))
    done
    [[ -n $noexec ]] && failmsg+="${failmsg:+; }no execution"
    (( attempts )) && failmsg+="${failmsg:+; }after $attempts reinvocations"
    [[ -n $interp ]] && rm -f "$interp"

    local unstable=
    [[ $(get_option tags "$_test") == *unstable* ]] && unstable=t
    if [[ -z $fail && -n $xfail && -n $unstable ]]; then
        fail=t; xfailmsg="xpassed but unstable${xfailmsg:+; $xfailmsg}"
    fi
    if [[ -z $fail ]]; then
        if [[ -n $xfail ]]; then
            report "$area" "$class" XPASS "$_test" "$xfailmsg"
        else
            report "$area" "$class" PASS "$_test" "$failmsg"
        fi
    else
        if [[ -z $xfail && -n $unstable ]]; then
            xfail=t; xfailmsg="unstable${xfailmsg:+; $xfailmsg}"
        fi
        if [[ -n $xfail ]]; then
            report "$area" "$class" XFAIL "$_test" "$failmsg${xfailmsg:+ ($xfailmsg)}"
        else
            report "$area" "$class" FAIL "$_test" "$failmsg"
        fi
    fi
}

# --- Main -----------------------------------------------------------------------------------
"$dt" -vV 2>&1 | head -2
for area in "$@"; do
    area=${area%/}
    # demo is test/demo, the DTrace Guide's examples, which runtest.sh runs as well.
    dir=test/unittest/$area
    [[ $area == demo || $area == demo/* ]] && dir=test/$area
    if [[ ! -e $dir ]]; then
        echo "conformance.sh: no area $dir" >&2
        continue
    fi
    areas_seen+=("$area")
    while read -r t; do
        [[ $t =~ /\. || $t == *~ ]] && continue
        run_test "$area" "$t"
    done < <(find "$dir" \( -name '*.d' -o -name '*.sh' -o -name '*.c' \) | LC_ALL=C sort -u)
done

# Totals per area, for each class of test.
totals() {
    local class=$1 title=$2 area k n line sum
    declare -A all=()
    printf '\n%s\n' "$title"
    printf '%-18s %5s %5s %5s %5s %5s\n' area PASS FAIL XPASS XFAIL SKIP
    for area in "${areas_seen[@]}"; do
        line=$(printf '%-18s' "$area"); sum=0
        for k in PASS FAIL XPASS XFAIL SKIP; do
            n=${count[$area|$class|$k]:-0}
            all[$k]=$(( ${all[$k]:-0} + n )); sum=$((sum + n))
            line+=$(printf ' %5d' "$n")
        done
        (( sum )) && echo "$line"
    done
    line=$(printf '%-18s' total)
    for k in PASS FAIL XPASS XFAIL SKIP; do line+=$(printf ' %5d' "${all[$k]:-0}"); done
    echo "$line"
}
{
    totals core "Tests using only BEGIN, END, ERROR, tick-N and profile-N probes:"
    totals kernel "Tests using syscall, tracepoint, sched, proc or io probes:"
    totals other "Tests using other probes (not run):"
    echo
    echo "Outputs and diffs: $results/tests"
} | tee -a "$results/summary.txt"

[[ -z $any_fail ]]
