/* Ten cleanpath() calls in one BEGIN program: more than the verifier walks (1,000,000 instructions). */
BEGIN { trace(cleanpath("/a/./b/../c0")); }
BEGIN { trace(cleanpath("/a/./b/../c1")); }
BEGIN { trace(cleanpath("/a/./b/../c2")); }
BEGIN { trace(cleanpath("/a/./b/../c3")); }
BEGIN { trace(cleanpath("/a/./b/../c4")); }
BEGIN { trace(cleanpath("/a/./b/../c5")); }
BEGIN { trace(cleanpath("/a/./b/../c6")); }
BEGIN { trace(cleanpath("/a/./b/../c7")); }
BEGIN { trace(cleanpath("/a/./b/../c8")); }
BEGIN { trace(cleanpath("/a/./b/../c9")); }
