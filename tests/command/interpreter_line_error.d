#!/usr/sbin/dtrace -s

BEGIN { x = ; }
